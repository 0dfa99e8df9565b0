//! The Go types of each Ignition spec the MCS reads or writes, as data: every struct's JSON
//! fields in declaration order (which is the order Go writes them), whether each is a
//! pointer, a list or a nested struct, and whether it carries `omitempty`. Taken from
//! coreos/ignition's `config/v3_N/types/schema.go` (v2.26.0, the version the MCO vendors)
//! and `config/v2_2/types/schema.go` (v0.35.0).
//!
//! One line per type: `Type = field:kind ...`. A kind is `s`, `i` or `b` (string, int,
//! bool), `*` before one of those or a type name for a pointer, `[x]` for a list, a type
//! name for a nested struct; `!` after it means no `omitempty`; `+Type` embeds a struct
//! (its fields come in its place, as Go flattens them).

use std::collections::HashMap;
use std::sync::LazyLock;

use super::Spec;

const V3_0: &str = "
CaReference = source:s! verification:Verification
Config = ignition:Ignition! passwd:Passwd storage:Storage systemd:Systemd
ConfigReference = source:*s! verification:Verification
Directory = +Node +DirectoryEmbedded1
DirectoryEmbedded1 = mode:*i
Disk = device:s! partitions:[Partition] wipeTable:*b
Dropin = contents:*s name:s!
File = +Node +FileEmbedded1
FileContents = compression:*s source:*s verification:Verification
FileEmbedded1 = append:[FileContents] contents:FileContents mode:*i
Filesystem = device:s! format:*s label:*s options:[s] path:*s uuid:*s wipeFilesystem:*b
Ignition = config:IgnitionConfig security:Security timeouts:Timeouts version:s
IgnitionConfig = merge:[ConfigReference] replace:ConfigReference
Link = +Node +LinkEmbedded1
LinkEmbedded1 = hard:*b target:s!
Node = group:NodeGroup overwrite:*b path:s! user:NodeUser
NodeGroup = id:*i name:*s
NodeUser = id:*i name:*s
Partition = guid:*s label:*s number:i shouldExist:*b sizeMiB:*i startMiB:*i typeGuid:*s wipePartitionEntry:*b
Passwd = groups:[PasswdGroup] users:[PasswdUser]
PasswdGroup = gid:*i name:s! passwordHash:*s system:*b
PasswdUser = gecos:*s groups:[s] homeDir:*s name:s! noCreateHome:*b noLogInit:*b noUserGroup:*b passwordHash:*s primaryGroup:*s sshAuthorizedKeys:[s] shell:*s system:*b uid:*i
Raid = devices:[s]! level:s! name:s! options:[s] spares:*i
Security = tls:TLS
Storage = directories:[Directory] disks:[Disk] files:[File] filesystems:[Filesystem] links:[Link] raid:[Raid]
Systemd = units:[Unit]
TLS = certificateAuthorities:[CaReference]
Timeouts = httpResponseHeaders:*i httpTotal:*i
Unit = contents:*s dropins:[Dropin] enabled:*b mask:*b name:s!
Verification = hash:*s
";

const V3_1: &str = "
Config = ignition:Ignition! passwd:Passwd storage:Storage systemd:Systemd
Directory = +Node +DirectoryEmbedded1
DirectoryEmbedded1 = mode:*i
Disk = device:s! partitions:[Partition] wipeTable:*b
Dropin = contents:*s name:s!
File = +Node +FileEmbedded1
FileEmbedded1 = append:[Resource] contents:Resource mode:*i
Filesystem = device:s! format:*s label:*s mountOptions:[s] options:[s] path:*s uuid:*s wipeFilesystem:*b
HTTPHeader = name:s! value:*s
Ignition = config:IgnitionConfig proxy:Proxy security:Security timeouts:Timeouts version:s
IgnitionConfig = merge:[Resource] replace:Resource
Link = +Node +LinkEmbedded1
LinkEmbedded1 = hard:*b target:s!
Node = group:NodeGroup overwrite:*b path:s! user:NodeUser
NodeGroup = id:*i name:*s
NodeUser = id:*i name:*s
Partition = guid:*s label:*s number:i shouldExist:*b sizeMiB:*i startMiB:*i typeGuid:*s wipePartitionEntry:*b
Passwd = groups:[PasswdGroup] users:[PasswdUser]
PasswdGroup = gid:*i name:s! passwordHash:*s system:*b
PasswdUser = gecos:*s groups:[s] homeDir:*s name:s! noCreateHome:*b noLogInit:*b noUserGroup:*b passwordHash:*s primaryGroup:*s sshAuthorizedKeys:[s] shell:*s system:*b uid:*i
Proxy = httpProxy:*s httpsProxy:*s noProxy:[s]
Raid = devices:[s]! level:s! name:s! options:[s] spares:*i
Resource = compression:*s httpHeaders:[HTTPHeader] source:*s verification:Verification
Security = tls:TLS
Storage = directories:[Directory] disks:[Disk] files:[File] filesystems:[Filesystem] links:[Link] raid:[Raid]
Systemd = units:[Unit]
TLS = certificateAuthorities:[Resource]
Timeouts = httpResponseHeaders:*i httpTotal:*i
Unit = contents:*s dropins:[Dropin] enabled:*b mask:*b name:s!
Verification = hash:*s
";

const V3_2: &str = "
Clevis = custom:*Custom tang:[Tang] threshold:*i tpm2:*b
Config = ignition:Ignition! passwd:Passwd storage:Storage systemd:Systemd
Custom = config:s! needsNetwork:*b pin:s!
Directory = +Node +DirectoryEmbedded1
DirectoryEmbedded1 = mode:*i
Disk = device:s! partitions:[Partition] wipeTable:*b
Dropin = contents:*s name:s!
File = +Node +FileEmbedded1
FileEmbedded1 = append:[Resource] contents:Resource mode:*i
Filesystem = device:s! format:*s label:*s mountOptions:[s] options:[s] path:*s uuid:*s wipeFilesystem:*b
HTTPHeader = name:s! value:*s
Ignition = config:IgnitionConfig proxy:Proxy security:Security timeouts:Timeouts version:s
IgnitionConfig = merge:[Resource] replace:Resource
Link = +Node +LinkEmbedded1
LinkEmbedded1 = hard:*b target:s!
Luks = clevis:*Clevis device:*s keyFile:Resource label:*s name:s! options:[s] uuid:*s wipeVolume:*b
Node = group:NodeGroup overwrite:*b path:s! user:NodeUser
NodeGroup = id:*i name:*s
NodeUser = id:*i name:*s
Partition = guid:*s label:*s number:i resize:*b shouldExist:*b sizeMiB:*i startMiB:*i typeGuid:*s wipePartitionEntry:*b
Passwd = groups:[PasswdGroup] users:[PasswdUser]
PasswdGroup = gid:*i name:s! passwordHash:*s shouldExist:*b system:*b
PasswdUser = gecos:*s groups:[s] homeDir:*s name:s! noCreateHome:*b noLogInit:*b noUserGroup:*b passwordHash:*s primaryGroup:*s sshAuthorizedKeys:[s] shell:*s shouldExist:*b system:*b uid:*i
Proxy = httpProxy:*s httpsProxy:*s noProxy:[s]
Raid = devices:[s]! level:s! name:s! options:[s] spares:*i
Resource = compression:*s httpHeaders:[HTTPHeader] source:*s verification:Verification
Security = tls:TLS
Storage = directories:[Directory] disks:[Disk] files:[File] filesystems:[Filesystem] links:[Link] luks:[Luks] raid:[Raid]
Systemd = units:[Unit]
TLS = certificateAuthorities:[Resource]
Tang = thumbprint:*s url:s
Timeouts = httpResponseHeaders:*i httpTotal:*i
Unit = contents:*s dropins:[Dropin] enabled:*b mask:*b name:s!
Verification = hash:*s
";

const V3_3: &str = "
Clevis = custom:ClevisCustom tang:[Tang] threshold:*i tpm2:*b
ClevisCustom = config:*s needsNetwork:*b pin:*s
Config = ignition:Ignition! kernelArguments:KernelArguments passwd:Passwd storage:Storage systemd:Systemd
Directory = +Node +DirectoryEmbedded1
DirectoryEmbedded1 = mode:*i
Disk = device:s! partitions:[Partition] wipeTable:*b
Dropin = contents:*s name:s!
File = +Node +FileEmbedded1
FileEmbedded1 = append:[Resource] contents:Resource mode:*i
Filesystem = device:s! format:*s label:*s mountOptions:[s] options:[s] path:*s uuid:*s wipeFilesystem:*b
HTTPHeader = name:s! value:*s
Ignition = config:IgnitionConfig proxy:Proxy security:Security timeouts:Timeouts version:s
IgnitionConfig = merge:[Resource] replace:Resource
KernelArguments = shouldExist:[s] shouldNotExist:[s]
Link = +Node +LinkEmbedded1
LinkEmbedded1 = hard:*b target:*s
Luks = clevis:Clevis device:*s keyFile:Resource label:*s name:s! options:[s] uuid:*s wipeVolume:*b
Node = group:NodeGroup overwrite:*b path:s! user:NodeUser
NodeGroup = id:*i name:*s
NodeUser = id:*i name:*s
Partition = guid:*s label:*s number:i resize:*b shouldExist:*b sizeMiB:*i startMiB:*i typeGuid:*s wipePartitionEntry:*b
Passwd = groups:[PasswdGroup] users:[PasswdUser]
PasswdGroup = gid:*i name:s! passwordHash:*s shouldExist:*b system:*b
PasswdUser = gecos:*s groups:[s] homeDir:*s name:s! noCreateHome:*b noLogInit:*b noUserGroup:*b passwordHash:*s primaryGroup:*s sshAuthorizedKeys:[s] shell:*s shouldExist:*b system:*b uid:*i
Proxy = httpProxy:*s httpsProxy:*s noProxy:[s]
Raid = devices:[s] level:*s name:s! options:[s] spares:*i
Resource = compression:*s httpHeaders:[HTTPHeader] source:*s verification:Verification
Security = tls:TLS
Storage = directories:[Directory] disks:[Disk] files:[File] filesystems:[Filesystem] links:[Link] luks:[Luks] raid:[Raid]
Systemd = units:[Unit]
TLS = certificateAuthorities:[Resource]
Tang = thumbprint:*s url:s
Timeouts = httpResponseHeaders:*i httpTotal:*i
Unit = contents:*s dropins:[Dropin] enabled:*b mask:*b name:s!
Verification = hash:*s
";

const V3_4: &str = "
Clevis = custom:ClevisCustom tang:[Tang] threshold:*i tpm2:*b
ClevisCustom = config:*s needsNetwork:*b pin:*s
Config = ignition:Ignition! kernelArguments:KernelArguments passwd:Passwd storage:Storage systemd:Systemd
Directory = +Node +DirectoryEmbedded1
DirectoryEmbedded1 = mode:*i
Disk = device:s! partitions:[Partition] wipeTable:*b
Dropin = contents:*s name:s!
File = +Node +FileEmbedded1
FileEmbedded1 = append:[Resource] contents:Resource mode:*i
Filesystem = device:s! format:*s label:*s mountOptions:[s] options:[s] path:*s uuid:*s wipeFilesystem:*b
HTTPHeader = name:s! value:*s
Ignition = config:IgnitionConfig proxy:Proxy security:Security timeouts:Timeouts version:s!
IgnitionConfig = merge:[Resource] replace:Resource
KernelArguments = shouldExist:[s] shouldNotExist:[s]
Link = +Node +LinkEmbedded1
LinkEmbedded1 = hard:*b target:*s
Luks = clevis:Clevis device:*s discard:*b keyFile:Resource label:*s name:s! openOptions:[s] options:[s] uuid:*s wipeVolume:*b
Node = group:NodeGroup overwrite:*b path:s! user:NodeUser
NodeGroup = id:*i name:*s
NodeUser = id:*i name:*s
Partition = guid:*s label:*s number:i resize:*b shouldExist:*b sizeMiB:*i startMiB:*i typeGuid:*s wipePartitionEntry:*b
Passwd = groups:[PasswdGroup] users:[PasswdUser]
PasswdGroup = gid:*i name:s! passwordHash:*s shouldExist:*b system:*b
PasswdUser = gecos:*s groups:[s] homeDir:*s name:s! noCreateHome:*b noLogInit:*b noUserGroup:*b passwordHash:*s primaryGroup:*s sshAuthorizedKeys:[s] shell:*s shouldExist:*b system:*b uid:*i
Proxy = httpProxy:*s httpsProxy:*s noProxy:[s]
Raid = devices:[s] level:*s name:s! options:[s] spares:*i
Resource = compression:*s httpHeaders:[HTTPHeader] source:*s verification:Verification
Security = tls:TLS
Storage = directories:[Directory] disks:[Disk] files:[File] filesystems:[Filesystem] links:[Link] luks:[Luks] raid:[Raid]
Systemd = units:[Unit]
TLS = certificateAuthorities:[Resource]
Tang = advertisement:*s thumbprint:*s url:s
Timeouts = httpResponseHeaders:*i httpTotal:*i
Unit = contents:*s dropins:[Dropin] enabled:*b mask:*b name:s!
Verification = hash:*s
";

const V3_5: &str = "
Cex = enabled:*b
Clevis = custom:ClevisCustom tang:[Tang] threshold:*i tpm2:*b
ClevisCustom = config:*s needsNetwork:*b pin:*s
Config = ignition:Ignition! kernelArguments:KernelArguments passwd:Passwd storage:Storage systemd:Systemd
Directory = +Node +DirectoryEmbedded1
DirectoryEmbedded1 = mode:*i
Disk = device:s! partitions:[Partition] wipeTable:*b
Dropin = contents:*s name:s!
File = +Node +FileEmbedded1
FileEmbedded1 = append:[Resource] contents:Resource mode:*i
Filesystem = device:s! format:*s label:*s mountOptions:[s] options:[s] path:*s uuid:*s wipeFilesystem:*b
HTTPHeader = name:s! value:*s
Ignition = config:IgnitionConfig proxy:Proxy security:Security timeouts:Timeouts version:s!
IgnitionConfig = merge:[Resource] replace:Resource
KernelArguments = shouldExist:[s] shouldNotExist:[s]
Link = +Node +LinkEmbedded1
LinkEmbedded1 = hard:*b target:*s
Luks = cex:Cex clevis:Clevis device:*s discard:*b keyFile:Resource label:*s name:s! openOptions:[s] options:[s] uuid:*s wipeVolume:*b
Node = group:NodeGroup overwrite:*b path:s! user:NodeUser
NodeGroup = id:*i name:*s
NodeUser = id:*i name:*s
Partition = guid:*s label:*s number:i resize:*b shouldExist:*b sizeMiB:*i startMiB:*i typeGuid:*s wipePartitionEntry:*b
Passwd = groups:[PasswdGroup] users:[PasswdUser]
PasswdGroup = gid:*i name:s! passwordHash:*s shouldExist:*b system:*b
PasswdUser = gecos:*s groups:[s] homeDir:*s name:s! noCreateHome:*b noLogInit:*b noUserGroup:*b passwordHash:*s primaryGroup:*s sshAuthorizedKeys:[s] shell:*s shouldExist:*b system:*b uid:*i
Proxy = httpProxy:*s httpsProxy:*s noProxy:[s]
Raid = devices:[s] level:*s name:s! options:[s] spares:*i
Resource = compression:*s httpHeaders:[HTTPHeader] source:*s verification:Verification
Security = tls:TLS
Storage = directories:[Directory] disks:[Disk] files:[File] filesystems:[Filesystem] links:[Link] luks:[Luks] raid:[Raid]
Systemd = units:[Unit]
TLS = certificateAuthorities:[Resource]
Tang = advertisement:*s thumbprint:*s url:s
Timeouts = httpResponseHeaders:*i httpTotal:*i
Unit = contents:*s dropins:[Dropin] enabled:*b mask:*b name:s!
Verification = hash:*s
";

const V2_2: &str = "
CaReference = source:s verification:Verification
Config = ignition:Ignition! networkd:Networkd passwd:Passwd storage:Storage systemd:Systemd
ConfigReference = source:s verification:Verification
Create = force:b options:[s]
Directory = +Node +DirectoryEmbedded1
DirectoryEmbedded1 = mode:*i
Disk = device:s partitions:[Partition] wipeTable:b
File = +Node +FileEmbedded1
FileContents = compression:s source:s verification:Verification
FileEmbedded1 = append:b contents:FileContents mode:*i
Filesystem = mount:*Mount name:s path:*s
Ignition = config:IgnitionConfig security:Security timeouts:Timeouts version:s
IgnitionConfig = append:[ConfigReference] replace:*ConfigReference
Link = +Node +LinkEmbedded1
LinkEmbedded1 = hard:b target:s
Mount = create:*Create device:s format:s label:*s options:[s] uuid:*s wipeFilesystem:b
Networkd = units:[Networkdunit]
NetworkdDropin = contents:s name:s
Networkdunit = contents:s dropins:[NetworkdDropin] name:s
Node = filesystem:s group:*NodeGroup overwrite:*b path:s user:*NodeUser
NodeGroup = id:*i name:s
NodeUser = id:*i name:s
Partition = guid:s label:s number:i size:i start:i typeGuid:s
Passwd = groups:[PasswdGroup] users:[PasswdUser]
PasswdGroup = gid:*i name:s passwordHash:s system:b
PasswdUser = create:*Usercreate gecos:s groups:[s] homeDir:s name:s noCreateHome:b noLogInit:b noUserGroup:b passwordHash:*s primaryGroup:s sshAuthorizedKeys:[s] shell:s system:b uid:*i
Raid = devices:[s] level:s name:s options:[s] spares:i
Security = tls:TLS
Storage = directories:[Directory] disks:[Disk] files:[File] filesystems:[Filesystem] links:[Link] raid:[Raid]
Systemd = units:[Unit]
SystemdDropin = contents:s name:s
TLS = certificateAuthorities:[CaReference]
Timeouts = httpResponseHeaders:*i httpTotal:*i
Unit = contents:s dropins:[SystemdDropin] enable:b enabled:*b mask:b name:s
Usercreate = gecos:s groups:[s] homeDir:s noCreateHome:b noLogInit:b noUserGroup:b primaryGroup:s shell:s system:b uid:*i
Verification = hash:*s
";
/// How a field is held in the Go struct.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `string` (or a named string type).
    Str,
    /// `int`.
    Int,
    /// `bool`.
    Bool,
    /// `*string`.
    PtrStr,
    /// `*int`.
    PtrInt,
    /// `*bool`.
    PtrBool,
    /// A nested struct, by type name.
    Struct(&'static str),
    /// A pointer to a struct, by type name.
    PtrStruct(&'static str),
    /// A list of strings.
    ListStr,
    /// A list of structs, by type name.
    List(&'static str),
}

/// One JSON field of a struct.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    /// The JSON name.
    pub name: &'static str,
    /// How it is held.
    pub kind: Kind,
    /// Whether Go leaves it out when empty.
    pub omitempty: bool,
}

/// One struct type, embedded structs flattened in place.
#[derive(Debug)]
pub struct Type {
    /// The Go type name (`File`, `Resource`).
    pub name: &'static str,
    /// Its JSON fields in Go's order.
    pub fields: Vec<Field>,
}

impl Type {
    /// The field called `name`.
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }
}

/// Every struct type of one spec.
#[derive(Debug)]
pub struct Schema {
    types: HashMap<&'static str, Type>,
}

impl Schema {
    /// The type called `name`.
    ///
    /// Every name a field refers to is defined: the tables are checked by a unit test.
    pub fn ty(&self, name: &str) -> &Type {
        self.types
            .get(name)
            .unwrap_or_else(|| panic!("Ignition schema has no type {name}"))
    }

    /// The top-level `Config`.
    pub fn root(&self) -> &Type {
        self.ty("Config")
    }
}

static SCHEMAS: LazyLock<Vec<(Spec, Schema)>> = LazyLock::new(|| {
    [
        (Spec::V3(0), V3_0),
        (Spec::V3(1), V3_1),
        (Spec::V3(2), V3_2),
        (Spec::V3(3), V3_3),
        (Spec::V3(4), V3_4),
        (Spec::V3(5), V3_5),
        (Spec::V2_2, V2_2),
    ]
    .into_iter()
    .map(|(spec, text)| (spec, parse(text)))
    .collect()
});

/// The types of `spec`.
pub fn of(spec: Spec) -> &'static Schema {
    &SCHEMAS
        .iter()
        .find(|(s, _)| *s == spec)
        .unwrap_or_else(|| panic!("no Ignition schema for {spec}"))
        .1
}

fn parse(text: &'static str) -> Schema {
    let mut raw: HashMap<&'static str, Vec<&'static str>> = HashMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let (name, fields) = line.split_once(" = ").expect("schema line has ' = '");
        raw.insert(name.trim(), fields.split_whitespace().collect());
    }
    let mut types = HashMap::new();
    for name in raw.keys() {
        types.insert(
            *name,
            Type {
                name,
                fields: flatten(&raw, name),
            },
        );
    }
    Schema { types }
}

fn flatten(raw: &HashMap<&'static str, Vec<&'static str>>, name: &str) -> Vec<Field> {
    let mut out = Vec::new();
    for token in &raw[name] {
        if let Some(embedded) = token.strip_prefix('+') {
            out.extend(flatten(raw, embedded));
            continue;
        }
        let (field, kind) = token.split_once(':').expect("schema field has ':'");
        let (kind, omitempty) = match kind.strip_suffix('!') {
            Some(k) => (k, false),
            None => (kind, true),
        };
        let kind = match kind {
            "s" => Kind::Str,
            "i" => Kind::Int,
            "b" => Kind::Bool,
            "*s" => Kind::PtrStr,
            "*i" => Kind::PtrInt,
            "*b" => Kind::PtrBool,
            "[s]" => Kind::ListStr,
            k if k.starts_with('[') => Kind::List(&k[1..k.len() - 1]),
            k if k.starts_with('*') => Kind::PtrStruct(&k[1..]),
            k => Kind::Struct(k),
        };
        out.push(Field {
            name: field,
            kind,
            omitempty,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_referenced_type_is_defined() {
        for spec in Spec::ALL {
            let s = of(spec);
            for t in s.types.values() {
                for f in &t.fields {
                    if let Kind::Struct(n) | Kind::PtrStruct(n) | Kind::List(n) = f.kind {
                        assert!(s.types.contains_key(n), "{spec}: {} refers to {n}", t.name);
                    }
                }
            }
        }
    }

    #[test]
    fn embedded_fields_come_in_gos_order() {
        let file = of(Spec::V3(5)).ty("File");
        let names: Vec<&str> = file.fields.iter().map(|f| f.name).collect();
        assert_eq!(
            names,
            [
                "group",
                "overwrite",
                "path",
                "user",
                "append",
                "contents",
                "mode"
            ]
        );
        let target = of(Spec::V3(2)).ty("Link").field("target").unwrap();
        assert_eq!((target.kind, target.omitempty), (Kind::Str, false));
        let target = of(Spec::V3(3)).ty("Link").field("target").unwrap();
        assert_eq!((target.kind, target.omitempty), (Kind::PtrStr, true));
    }
}
