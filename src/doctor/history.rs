//! A pointer's CA named by the asset directory's history: after `ca promote` or `ca retire`, a
//! copy of a pointer config made before the rotation trusts a CA this directory used to have.
//! Both CAs are often named alike (`OU=openshift, CN=root-ca`), so the message says which is
//! which by role and key id, and the fix is the directory's own pointer config, not a new
//! certificate.

use crate::model::cas::CaRole;
use crate::pki::cert::CertInfo;

/// The directory's CAs, current and past ([`crate::model::cas::CaSet::history`]), and how the
/// directory is named in messages.
#[derive(Debug, Clone, Default)]
pub struct History {
    /// The asset directory, as given.
    pub dir: String,
    /// Each CA with its role.
    pub cas: Vec<(CaRole, CertInfo)>,
}

impl History {
    fn role_of(&self, der: &[u8]) -> Option<&CaRole> {
        self.cas.iter().find(|(_, c)| c.der == der).map(|(r, _)| r)
    }

    /// The directory's CA that issued `leaf`, when one did.
    fn issuer_of(&self, leaf: &CertInfo) -> Option<&(CaRole, CertInfo)> {
        self.cas.iter().find(|(_, c)| leaf.is_issued_by(c))
    }

    /// When the pointer trusts only CAs this directory replaced and the server presents a
    /// certificate of the directory's active (or next) CA: (detail, fix) saying so.
    pub fn stale_copy(
        &self,
        trusted: &[CertInfo],
        leaf: Option<&CertInfo>,
        pool: &str,
    ) -> Option<(String, String)> {
        let (role, signer) = self.issuer_of(leaf?)?;
        if !matches!(role, CaRole::Active | CaRole::Next) || trusted.is_empty() {
            return None;
        }
        let mut past = Vec::new();
        for c in trusted {
            let what = match self.role_of(&c.der)? {
                CaRole::Previous => format!(
                    "{}'s previous CA (tls/mcs-ca-previous.crt, replaced by `ca promote`)",
                    self.dir
                ),
                CaRole::Retired(file) => format!("a CA {} retired ({file})", self.dir),
                CaRole::Active | CaRole::Next => return None,
            };
            past.push(format!("{}, {what}", c.subject_with_key_id()));
        }
        let detail = format!(
            "x509: certificate signed by unknown authority: the server presents a certificate of {}'s active CA {}, and the pointer trusts only {}: it is a copy of a pointer config made before the CA rotation",
            self.dir,
            signer.subject_with_key_id(),
            past.join("; ")
        );
        let fix = format!(
            "replace the copy wherever machines boot from it (PXE server, VM template, user data) with {}/{pool}.ign, which trusts the active CA, or write one with `mcsctl pointer --pool {pool} --output FILE --force`; `mcsctl inspect FILE...` checks copies",
            self.dir
        );
        Some((detail, fix))
    }
}
