//! The EXAMPLES of every command, shown at the end of its `--help` and in its man page.
//!
//! Each is a shell script that runs as written, in order, in one lab (`tests/cli/examples.rs`
//! runs them all): a directory holding `mcs-assets` made by `mcsctl init ... --san 127.0.0.1
//! --url 127.0.0.1:PORT` with a `serve` answering on that port, the MachineConfig
//! `50-worker-motd.yaml`, the bootstrap kubeconfig `kubeconfig-kubelet`, `hosts.csv`, the
//! `oc get csr`/`oc get nodes` output `csrs.json` and `nodes.json`, and the kubelet signer's
//! `tls.crt`/`tls.key` with a node's `node.csr`. A line ending in `# needs an etcd cluster` is
//! checked by the command-line parser only.

/// (command path, script), in the order the lab runs them.
pub const EXAMPLES: &[(&str, &str)] = &[
    (
        "init",
        "# A lab on one computer: the CA, a serving certificate for 127.0.0.1, a token and one
# pointer config per pool, machines fetching from 127.0.0.1:22623
mcsctl --dir lab init --cluster-name demo --base-domain example.com --url 127.0.0.1:22623 --san 127.0.0.1
# What starting over would replace, without replacing it
mcsctl init --cluster-name demo --base-domain example.com --force --yes --dry-run",
    ),
    (
        "ca create",
        "# Step by step instead of init: a CA first (then `cert issue`)
mcsctl --dir step ca create --key-algorithm ecdsa-p384",
    ),
    (
        "cert issue",
        "# The serving certificate, for the names machines reach the MCS by
mcsctl --dir step cert issue --san mcs.lab.example.com --san 192.0.2.10",
    ),
    (
        "ca import",
        "# Adopt an existing CA, e.g. openshift-install's tls/root-ca.crt and tls/root-ca.key
mcsctl --dir adopted ca import --cert lab/tls/mcs-ca.crt --key lab/tls/mcs-ca.key",
    ),
    (
        "ca rotate",
        "# Phase 1 of 3: a new CA beside the old one; every pointer config trusts both
mcsctl --dir lab ca rotate",
    ),
    (
        "ca promote",
        "# Phase 2 of 3: the new CA signs the serving certificate (copy the rewritten pointer
# configs to where machines boot from first)
mcsctl --dir lab ca promote",
    ),
    (
        "ca retire",
        "# Phase 3 of 3: the old CA leaves the bundle and every pointer config
mcsctl --dir lab ca retire",
    ),
    (
        "cert renew",
        "# Same CA, same names, new key (a running serve picks it up at its next reload)
mcsctl cert renew
mcsctl cert renew --validity 90d --dry-run",
    ),
    (
        "pointer",
        "# A pointer config for a new pool, and one as cloud user data
mcsctl pointer --pool infra --new-pool
mcsctl pointer --pool worker --output - --base64 > worker.b64",
    ),
    (
        "token create",
        "# A token that expires, described for whoever finds it later; printed once
mcsctl token create --ttl 24h --description \"lab rack 3\"
# One for two pools, as JSON for a script
mcsctl token create --pool worker --pool infra -o json > token.json",
    ),
    (
        "token list",
        "mcsctl token list
mcsctl token list -o yaml",
    ),
    (
        "token revoke",
        "# Revoke a token by its id (the part before the dot; `token list` shows them)
id=$(mcsctl token create --pool worker -q | cut -d. -f1)
mcsctl token revoke \"$id\"",
    ),
    (
        "token rotate",
        "# A new token per pool; pointer configs are rewritten; old copies keep working for an hour
mcsctl token rotate --grace 1h",
    ),
    (
        "token prune",
        "# What would go: tokens revoked or expired
mcsctl token prune --dry-run
mcsctl token prune",
    ),
    (
        "token publish",
        "# Publish again after a publish failed (to the store mcsctl.json remembers)
mcsctl token publish --store etcd://etcd-0.lab.example.com:2379 --store-ca etcd-ca.crt # needs an etcd cluster",
    ),
    (
        "machine add",
        "# One machine with its own single-use pointer config (mcs-assets/machines/w0.ign)
mcsctl machine add w0 --pool worker --ip 10.0.0.20
# A rack at once from a CSV of name,pool,addresses
mcsctl machine add --from hosts.csv",
    ),
    (
        "machine list",
        "mcsctl machine list
mcsctl machine list -o json > machines.json",
    ),
    (
        "machine watch",
        "# Until every machine is done or stopped (a table on a terminal, JSON lines otherwise)
mcsctl machine watch --timeout 30m # needs machines booting
# With the cluster's CSRs and Nodes, refreshed by another loop, up to Ready
mcsctl machine watch --csrs csrs.json --nodes nodes.json # needs machines booting",
    ),
    (
        "machine remove",
        "# Its token is revoked and its pointer config removed
mcsctl machine remove w1",
    ),
    (
        "render",
        "# What the MCS would serve the worker pool, with the kubelet's bootstrap kubeconfig
mcsctl render --machine-configs 50-worker-motd.yaml --bootstrap-kubeconfig kubeconfig-kubelet
# What would change, written nowhere
mcsctl render --machine-configs 50-worker-motd.yaml --dry-run",
    ),
    (
        "inspect",
        "# Every certificate, key, pointer config and token of the directory (exit 0: nothing to fix)
mcsctl inspect
mcsctl inspect --warn-within 30d -o json > inspect.json",
    ),
    (
        "serve",
        "# Serve on any free port of this computer (the banner names it; 0.0.0.0:22623 by default),
# with readable log lines even when piped
mcsctl serve --listen 127.0.0.1:0 --log-format text
# From another shell: reload the serve(s) of this directory now, not at the next poll
mcsctl serve --reload",
    ),
    (
        "doctor",
        "# Do what Ignition does with the worker pointer config, step by step
mcsctl doctor
mcsctl doctor mcs-assets/infra.ign -o json > doctor.json",
    ),
    (
        "csr review",
        "# From `oc get csr -o json` and `oc get nodes -o json`: what to approve, and why
mcsctl csr review --csrs csrs.json --nodes nodes.json",
    ),
    (
        "csr sign",
        "# Sign a kubelet CSR with the cluster's signer (`oc -n openshift-kube-controller-manager-operator
# extract secret/csr-signer` writes tls.crt and tls.key), e.g. while the API is down
mcsctl csr sign --csr node.csr --ca-cert tls.crt --ca-key tls.key --output node.crt",
    ),
    (
        "manifests",
        "# The Secrets and ConfigMap for the cluster, and a Deployment running serve (one replica:
# with machine tokens, its ledger of their fetches lives on its volume)
mcsctl manifests --output cluster-manifests --serve-deployment --image quay.io/example/mcsctl:latest --replicas 1",
    ),
    (
        "ledger import",
        "# Move the ledger files' fetch records into the store serve replicas share
mcsctl ledger import --store etcd://etcd-0.lab.example.com:2379,etcd-1.lab.example.com:2379 --store-ca etcd-ca.crt # needs an etcd cluster",
    ),
    (
        "completions",
        "mcsctl completions bash > mcsctl.bash
mcsctl completions zsh > _mcsctl",
    ),
    (
        "man",
        "mcsctl man --output man1",
    ),
    (
        "version",
        "mcsctl version
mcsctl version -o json > version.json",
    ),
];

/// The examples of the command at `path` (`token rotate`).
pub fn of(path: &str) -> Option<&'static str> {
    EXAMPLES.iter().find(|(p, _)| *p == path).map(|(_, e)| *e)
}

/// The command definition with each command's examples at the end of its long help, set out
/// for help `width` columns wide ([`super::help::examples`]).
pub fn attach(cmd: clap::Command, width: usize) -> clap::Command {
    attach_at(cmd, "", width)
}

fn attach_at(mut cmd: clap::Command, path: &str, width: usize) -> clap::Command {
    if let Some(e) = of(path) {
        let shown = super::help::examples(e, width);
        cmd = cmd.after_long_help(format!("Examples:\n{shown}"));
    }
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for n in names {
        let sub = if path.is_empty() {
            n.clone()
        } else {
            format!("{path} {n}")
        };
        cmd = cmd.mut_subcommand(&n, |s| attach_at(s, &sub, width));
    }
    cmd
}
