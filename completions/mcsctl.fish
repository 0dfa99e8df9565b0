# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_mcsctl_global_optspecs
    string join \n dir= o/format= q/quiet v/verbose non-interactive dry-run max-input-size= h/help V/version
end

function __fish_mcsctl_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_mcsctl_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_mcsctl_using_subcommand
    set -l cmd (__fish_mcsctl_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c mcsctl -n "__fish_mcsctl_needs_command" -l dir -d 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets); also accepted after the command' -r -F
complete -c mcsctl -n "__fish_mcsctl_needs_command" -s o -l format -d 'Output format of the data written to stdout (default text); also accepted after the command. `-o` as in oc and kubectl' -r -f -a "text\t'Text for people: tables and summaries'
json\t'One JSON document (schemas in docs/scripting.md), for scripts'
yaml\t'The same document in YAML (keys sorted, as `oc -o yaml` writes)'"
complete -c mcsctl -n "__fish_mcsctl_needs_command" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_needs_command" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_needs_command" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_needs_command" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_needs_command" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_needs_command" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_needs_command" -f -a "init" -d 'Create the whole asset directory in one step: CA, serving certificate, token, pointer configs'
complete -c mcsctl -n "__fish_mcsctl_needs_command" -f -a "ca" -d 'Create, import or rotate the MCS CA'
complete -c mcsctl -n "__fish_mcsctl_needs_command" -f -a "cert" -d 'Issue or renew the MCS serving certificate'
complete -c mcsctl -n "__fish_mcsctl_needs_command" -f -a "pointer" -d 'Write an Ignition pointer config for a pool'
complete -c mcsctl -n "__fish_mcsctl_needs_command" -f -a "token" -d 'Manage bearer provisioning tokens'
complete -c mcsctl -n "__fish_mcsctl_needs_command" -f -a "machine" -d 'Register the machines a UPI cluster expects, each with its own single-use pointer config'
complete -c mcsctl -n "__fish_mcsctl_needs_command" -f -a "inspect" -d 'Check expiry and consistency of certificates, pointer configs, the asset directory or a live endpoint'
complete -c mcsctl -n "__fish_mcsctl_needs_command" -f -a "render" -d 'Render MachineConfigs into rendered/<pool>.ign and the pre-approval subset'
complete -c mcsctl -n "__fish_mcsctl_needs_command" -f -a "serve" -d 'Serve rendered configs over TLS to booting machines (the Machine Config Server)'
complete -c mcsctl -n "__fish_mcsctl_needs_command" -f -a "doctor" -d 'Do what Ignition does with a pointer config, step by step, and say which step fails'
complete -c mcsctl -n "__fish_mcsctl_needs_command" -f -a "csr" -d 'Review kubelet CSRs by the cluster-machine-approver\'s rules, or sign one'
complete -c mcsctl -n "__fish_mcsctl_needs_command" -f -a "manifests" -d 'Write Kubernetes objects for the cluster, and optionally a Deployment running `mcsctl serve`'
complete -c mcsctl -n "__fish_mcsctl_needs_command" -f -a "ledger" -d 'Move the provisioning ledger files into the store serve replicas share'
complete -c mcsctl -n "__fish_mcsctl_needs_command" -f -a "completions" -d 'Print a static shell completion script to stdout (commands and flags). For completions that also offer the asset directory\'s pools, token ids and machines, have the shell ask mcsctl: `source <(COMPLETE=bash mcsctl)` in ~/.bashrc (zsh alike; fish: `COMPLETE=fish mcsctl | source`)'
complete -c mcsctl -n "__fish_mcsctl_needs_command" -f -a "man" -d 'Write one man page per command into a directory'
complete -c mcsctl -n "__fish_mcsctl_needs_command" -f -a "version" -d 'Print mcsctl\'s version, the commit and target it was built for, and the TLS and Ignition spec versions it speaks'
complete -c mcsctl -n "__fish_mcsctl_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand init" -l cluster-name -d 'Cluster name (a DNS label), as in the install-config' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand init" -l base-domain -d 'Base domain (a DNS name); the MCS is reached at api-int.<cluster>.<base-domain>' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand init" -l url -d 'Where machines reach the MCS, if not at api-int (a load balancer): HOST, HOST:PORT or https://HOST:PORT; its host becomes a SAN' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand init" -l san -d 'Extra subject alternative name of the serving certificate (DNS name or IP); repeatable' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand init" -l pool -d 'Machine pool to write a pointer config for; repeatable (default: worker and master)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand init" -l ca-cert -d 'Adopt this CA instead of creating one (openshift-install\'s tls/root-ca.crt; PEM or DER)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand init" -l ca-key -d 'The adopted CA\'s private key (PEM or DER; PKCS#1, PKCS#8 or SEC1)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand init" -l key-algorithm -d 'Key algorithm of the CA and serving keys (default ecdsa-p256)' -r -f -a "ecdsa-p256\t'ECDSA on NIST P-256 with SHA-256'
ecdsa-p384\t'ECDSA on NIST P-384 with SHA-384'
ed25519\t'Ed25519'
rsa-2048\t'RSA 2048-bit (what openshift-install uses)'
rsa-3072\t'RSA 3072-bit'
rsa-4096\t'RSA 4096-bit'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand init" -l ca-validity -d 'Validity of the CA (e.g. 10y, 365d)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand init" -l cert-validity -d 'Validity of the serving certificate; never beyond the CA\'s' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand init" -l token-transport -d 'How pointer configs carry the token: header or query' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand init" -l spec-version -d 'Ignition spec version of the pointer configs (3.0.0 to 3.4.0)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand init" -l for -d 'What `render` renders for: OpenShift nodes (the MCS payload) or plain CoreOS' -r -f -a "openshift\t'OpenShift / OKD nodes: what the MCS serves (MCO merge rules, node annotations, bootstrap kubeconfig, the MachineConfig for the machine-config daemon\'s firstboot)'
coreos\t'Fedora CoreOS fleets with no machine-config daemon: plain Ignition, kernel arguments as Ignition kernelArguments; fips, kernelType, extensions and osImageURL are refused'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand init" -l dir -d 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand init" -s o -l format -d 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl' -r -f -a "text\t'Text for people: tables and summaries'
json\t'One JSON document (schemas in docs/scripting.md), for scripts'
yaml\t'The same document in YAML (keys sorted, as `oc -o yaml` writes)'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand init" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand init" -l no-token -d 'Do not create a provisioning token; pointer configs carry no credential'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand init" -l force -d 'Replace an existing, non-empty asset directory: the keys, tokens and pointer configs it replaces are kept under backup/<time>/ (and listed), pointer configs of pools no longer listed are removed; tls/retired/ is left as it is'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand init" -s y -l yes -d 'With --force: replace the CA key without asking (needed without a terminal; every pointer config made from the old CA stops working)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand init" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand init" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand init" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand init" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand init" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand init" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and not __fish_seen_subcommand_from create import rotate promote retire help" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and not __fish_seen_subcommand_from create import rotate promote retire help" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and not __fish_seen_subcommand_from create import rotate promote retire help" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and not __fish_seen_subcommand_from create import rotate promote retire help" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and not __fish_seen_subcommand_from create import rotate promote retire help" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and not __fish_seen_subcommand_from create import rotate promote retire help" -s h -l help -d 'Print help'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and not __fish_seen_subcommand_from create import rotate promote retire help" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and not __fish_seen_subcommand_from create import rotate promote retire help" -f -a "create" -d 'Create the MCS CA; with --force over an existing one, rotate to a new CA and promote it at once'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and not __fish_seen_subcommand_from create import rotate promote retire help" -f -a "import" -d 'Adopt an existing CA (openshift-install\'s tls/root-ca.{crt,key}), or trust a cluster\'s CA bundle'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and not __fish_seen_subcommand_from create import rotate promote retire help" -f -a "rotate" -d 'Phase 1 of 3: introduce a new CA beside the active one; pointer configs trust both'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and not __fish_seen_subcommand_from create import rotate promote retire help" -f -a "promote" -d 'Phase 2 of 3: re-issue the serving certificate from the new CA, which becomes the active one'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and not __fish_seen_subcommand_from create import rotate promote retire help" -f -a "retire" -d 'Phase 3 of 3: drop the previous CA from the bundle and every pointer config'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and not __fish_seen_subcommand_from create import rotate promote retire help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from create" -l key-algorithm -d 'Key algorithm of the CA key' -r -f -a "ecdsa-p256\t'ECDSA on NIST P-256 with SHA-256'
ecdsa-p384\t'ECDSA on NIST P-384 with SHA-384'
ed25519\t'Ed25519'
rsa-2048\t'RSA 2048-bit (what openshift-install uses)'
rsa-3072\t'RSA 3072-bit'
rsa-4096\t'RSA 4096-bit'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from create" -l validity -d 'Validity of the CA' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from create" -l dir -d 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from create" -s o -l format -d 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl' -r -f -a "text\t'Text for people: tables and summaries'
json\t'One JSON document (schemas in docs/scripting.md), for scripts'
yaml\t'The same document in YAML (keys sorted, as `oc -o yaml` writes)'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from create" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from create" -l force -d 'Replace an existing CA: retire any previous CA, rotate to a new one and promote it in one step. Refused while pointer configs trust the CA (their copies would stop working) unless --yes; `ca rotate` keeps them working. No key is lost: the replaced CA\'s key is kept as tls/mcs-ca-previous.key, a previous one\'s under tls/retired/'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from create" -s y -l yes -d 'With --force: replace the CA even though copies of the pointer configs stop working'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from create" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from create" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from create" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from create" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from create" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from import" -l cert -d 'CA certificate, PEM or DER' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from import" -l key -d 'CA private key, PEM or DER (PKCS#1, PKCS#8 or SEC1)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from import" -l bundle -d 'A cluster\'s CA bundle to trust exactly: the machine-config-server-ca or root-ca ConfigMap (oc get -o json|yaml), or PEM; with the Secret of the same name (or --key), its signing key. The directory\'s own bundle again changes nothing; a bundle without the CA whose key is here needs --force, and that key is kept under tls/retired/' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from import" -l dir -d 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from import" -s o -l format -d 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl' -r -f -a "text\t'Text for people: tables and summaries'
json\t'One JSON document (schemas in docs/scripting.md), for scripts'
yaml\t'The same document in YAML (keys sorted, as `oc -o yaml` writes)'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from import" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from import" -l force -d 'Replace an existing CA (rotate to the imported one and promote it in one step). Refused while pointer configs trust the CA unless --yes; `ca rotate --cert --key` keeps them working. Not needed to put the active CA\'s own key back. No key is lost: a replaced one is kept as tls/mcs-ca-previous.key or under tls/retired/ (and listed)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from import" -s y -l yes -d 'With --force: replace the CA even though copies of the pointer configs stop working'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from import" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from import" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from import" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from import" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from import" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from import" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from rotate" -l key-algorithm -d 'Key algorithm of the new CA key (default: the active CA\'s)' -r -f -a "ecdsa-p256\t'ECDSA on NIST P-256 with SHA-256'
ecdsa-p384\t'ECDSA on NIST P-384 with SHA-384'
ed25519\t'Ed25519'
rsa-2048\t'RSA 2048-bit (what openshift-install uses)'
rsa-3072\t'RSA 3072-bit'
rsa-4096\t'RSA 4096-bit'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from rotate" -l validity -d 'Validity of the new CA' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from rotate" -l cert -d 'Rotate to an existing CA instead of a new one: its certificate (PEM or DER)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from rotate" -l key -d 'The existing CA\'s private key (PEM or DER)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from rotate" -l dir -d 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from rotate" -s o -l format -d 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl' -r -f -a "text\t'Text for people: tables and summaries'
json\t'One JSON document (schemas in docs/scripting.md), for scripts'
yaml\t'The same document in YAML (keys sorted, as `oc -o yaml` writes)'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from rotate" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from rotate" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from rotate" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from rotate" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from rotate" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from rotate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from rotate" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from promote" -l validity -d 'Validity of the re-issued serving certificate (never beyond the new CA\'s)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from promote" -l dir -d 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from promote" -s o -l format -d 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl' -r -f -a "text\t'Text for people: tables and summaries'
json\t'One JSON document (schemas in docs/scripting.md), for scripts'
yaml\t'The same document in YAML (keys sorted, as `oc -o yaml` writes)'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from promote" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from promote" -l force -d 'Promote even though some pointer configs here do not trust the new CA (they are named)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from promote" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from promote" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from promote" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from promote" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from promote" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from promote" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from retire" -l dir -d 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from retire" -s o -l format -d 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl' -r -f -a "text\t'Text for people: tables and summaries'
json\t'One JSON document (schemas in docs/scripting.md), for scripts'
yaml\t'The same document in YAML (keys sorted, as `oc -o yaml` writes)'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from retire" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from retire" -l purge -d 'Also delete the keys of retired CAs kept under tls/retired/: the one way mcsctl deletes a CA key. Without it, the retired CA\'s key is kept there (and listed)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from retire" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from retire" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from retire" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from retire" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from retire" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from retire" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from help" -f -a "create" -d 'Create the MCS CA; with --force over an existing one, rotate to a new CA and promote it at once'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from help" -f -a "import" -d 'Adopt an existing CA (openshift-install\'s tls/root-ca.{crt,key}), or trust a cluster\'s CA bundle'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from help" -f -a "rotate" -d 'Phase 1 of 3: introduce a new CA beside the active one; pointer configs trust both'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from help" -f -a "promote" -d 'Phase 2 of 3: re-issue the serving certificate from the new CA, which becomes the active one'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from help" -f -a "retire" -d 'Phase 3 of 3: drop the previous CA from the bundle and every pointer config'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ca; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and not __fish_seen_subcommand_from issue renew help" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and not __fish_seen_subcommand_from issue renew help" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and not __fish_seen_subcommand_from issue renew help" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and not __fish_seen_subcommand_from issue renew help" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and not __fish_seen_subcommand_from issue renew help" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and not __fish_seen_subcommand_from issue renew help" -s h -l help -d 'Print help'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and not __fish_seen_subcommand_from issue renew help" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and not __fish_seen_subcommand_from issue renew help" -f -a "issue" -d 'Issue the serving certificate (tls/mcs.crt, tls/mcs.key), signed by the CA'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and not __fish_seen_subcommand_from issue renew help" -f -a "renew" -d 'Renew the serving certificate: same CA, same SANs, new key'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and not __fish_seen_subcommand_from issue renew help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and __fish_seen_subcommand_from issue" -l san -d 'A subject alternative name (DNS name or IP) to add; repeatable. The certificate always names api-int and the hosts of the URLs in mcsctl.json, and keeps the current certificate\'s names unless --replace-sans' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and __fish_seen_subcommand_from issue" -l key-algorithm -d 'Key algorithm of the serving key (default: the one recorded in mcsctl.json, else the CA\'s)' -r -f -a "ecdsa-p256\t'ECDSA on NIST P-256 with SHA-256'
ecdsa-p384\t'ECDSA on NIST P-384 with SHA-384'
ed25519\t'Ed25519'
rsa-2048\t'RSA 2048-bit (what openshift-install uses)'
rsa-3072\t'RSA 3072-bit'
rsa-4096\t'RSA 4096-bit'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and __fish_seen_subcommand_from issue" -l validity -d 'Validity; never beyond the CA\'s notAfter' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and __fish_seen_subcommand_from issue" -l dir -d 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and __fish_seen_subcommand_from issue" -s o -l format -d 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl' -r -f -a "text\t'Text for people: tables and summaries'
json\t'One JSON document (schemas in docs/scripting.md), for scripts'
yaml\t'The same document in YAML (keys sorted, as `oc -o yaml` writes)'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and __fish_seen_subcommand_from issue" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and __fish_seen_subcommand_from issue" -l replace-sans -d 'Leave out the current certificate\'s names: the new one names api-int, the recorded URL hosts and --san only'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and __fish_seen_subcommand_from issue" -l force -d 'Replace an existing serving certificate'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and __fish_seen_subcommand_from issue" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and __fish_seen_subcommand_from issue" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and __fish_seen_subcommand_from issue" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and __fish_seen_subcommand_from issue" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and __fish_seen_subcommand_from issue" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and __fish_seen_subcommand_from issue" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and __fish_seen_subcommand_from renew" -l key-algorithm -d 'Key algorithm of the new key (default: the one of the current key)' -r -f -a "ecdsa-p256\t'ECDSA on NIST P-256 with SHA-256'
ecdsa-p384\t'ECDSA on NIST P-384 with SHA-384'
ed25519\t'Ed25519'
rsa-2048\t'RSA 2048-bit (what openshift-install uses)'
rsa-3072\t'RSA 3072-bit'
rsa-4096\t'RSA 4096-bit'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and __fish_seen_subcommand_from renew" -l validity -d 'Validity; never beyond the CA\'s notAfter' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and __fish_seen_subcommand_from renew" -l dir -d 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and __fish_seen_subcommand_from renew" -s o -l format -d 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl' -r -f -a "text\t'Text for people: tables and summaries'
json\t'One JSON document (schemas in docs/scripting.md), for scripts'
yaml\t'The same document in YAML (keys sorted, as `oc -o yaml` writes)'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and __fish_seen_subcommand_from renew" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and __fish_seen_subcommand_from renew" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and __fish_seen_subcommand_from renew" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and __fish_seen_subcommand_from renew" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and __fish_seen_subcommand_from renew" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and __fish_seen_subcommand_from renew" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and __fish_seen_subcommand_from renew" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and __fish_seen_subcommand_from help" -f -a "issue" -d 'Issue the serving certificate (tls/mcs.crt, tls/mcs.key), signed by the CA'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and __fish_seen_subcommand_from help" -f -a "renew" -d 'Renew the serving certificate: same CA, same SANs, new key'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand cert; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand pointer" -l pool -d 'Machine pool (a DNS label, e.g. worker or master)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand pointer" -l url -d 'Merge source URL, or the MCS address (HOST[:PORT], completed with /config/<pool>); remembered for the pool in mcsctl.json (default: init --url, else https://api-int.<cluster>.<base-domain>:22623/config/<pool>)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand pointer" -l spec-version -d 'Ignition spec version (3.0.0 to 3.4.0; default from mcsctl.json)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand pointer" -l token-transport -d 'How the token is carried (default from mcsctl.json; none for no token)' -r -f -a "header\t'`Authorization: Bearer` in httpHeaders (spec 3.1.0 and later)'
query\t'`?token=` in the merge URL (the only way for spec 3.0.0)'
none\t'No token in the pointer config'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand pointer" -l output -d 'Where to write: a file, or - for stdout (default <dir>/<pool>.ign)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand pointer" -l dir -d 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand pointer" -s o -l format -d 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl' -r -f -a "text\t'Text for people: tables and summaries'
json\t'One JSON document (schemas in docs/scripting.md), for scripts'
yaml\t'The same document in YAML (keys sorted, as `oc -o yaml` writes)'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand pointer" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand pointer" -l base64 -d 'Write the config base64-encoded, as cloud user-data fields expect'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand pointer" -l force -d 'Replace an existing file'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand pointer" -l new-pool -d 'The pool is new, not a typo: it may have no rendered config and not be in mcsctl.json\'s pools (it is added there). Without it such a pool is refused, naming the known ones'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand pointer" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand pointer" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand pointer" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand pointer" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand pointer" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand pointer" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and not __fish_seen_subcommand_from create rotate list revoke prune publish help" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and not __fish_seen_subcommand_from create rotate list revoke prune publish help" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and not __fish_seen_subcommand_from create rotate list revoke prune publish help" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and not __fish_seen_subcommand_from create rotate list revoke prune publish help" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and not __fish_seen_subcommand_from create rotate list revoke prune publish help" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and not __fish_seen_subcommand_from create rotate list revoke prune publish help" -s h -l help -d 'Print help'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and not __fish_seen_subcommand_from create rotate list revoke prune publish help" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and not __fish_seen_subcommand_from create rotate list revoke prune publish help" -f -a "create" -d 'Create a new token, the current one (carried by pointer configs) of each pool without one'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and not __fish_seen_subcommand_from create rotate list revoke prune publish help" -f -a "rotate" -d 'Make a new current token, keep the old one valid for --grace, rewrite every pointer config'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and not __fish_seen_subcommand_from create rotate list revoke prune publish help" -f -a "list" -d 'List tokens (ids, states, expiry; never secrets)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and not __fish_seen_subcommand_from create rotate list revoke prune publish help" -f -a "revoke" -d 'Revoke a token by id'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and not __fish_seen_subcommand_from create rotate list revoke prune publish help" -f -a "prune" -d 'Remove expired and revoked tokens from auth/tokens.json'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and not __fish_seen_subcommand_from create rotate list revoke prune publish help" -f -a "publish" -d 'Publish the directory\'s tokens to the store serve replicas share (again, after a publish failed, or to move the directory to another store)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and not __fish_seen_subcommand_from create rotate list revoke prune publish help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from create" -l ttl -d 'Lifetime of the token (e.g. 24h, 30d); default: no expiry' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from create" -l description -d 'Free-text description shown by `token list`' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from create" -l pool -d 'A pool whose config the token may fetch; repeatable (default: every pool of mcsctl.json). With --print-pointer, the pointer config printed is the first pool\'s' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from create" -l store -d 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token\'s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica\'s ledger file' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from create" -l store-ca -d 'The CA that signed the etcd members\' serving certificates (PEM): the store is reached over TLS' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from create" -l store-cert -d 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from create" -l store-key -d 'The client certificate\'s key (PEM)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from create" -l store-prefix -d 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from create" -l dir -d 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from create" -s o -l format -d 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl' -r -f -a "text\t'Text for people: tables and summaries'
json\t'One JSON document (schemas in docs/scripting.md), for scripts'
yaml\t'The same document in YAML (keys sorted, as `oc -o yaml` writes)'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from create" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from create" -l print-pointer -d 'Print a ready pointer config carrying the new token on stdout, as `kubeadm token create --print-join-command` prints a join command'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from create" -l new-pool -d 'The pool is new, not a typo: it may have no rendered config and not be in mcsctl.json\'s pools (it is added there). Without it such a pool is refused, naming the known ones'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from create" -l store-insecure -d 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from create" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from create" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from create" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from create" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from create" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from rotate" -l grace -d 'How long the previous current token stays valid' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from rotate" -l ttl -d 'Lifetime of the new token; default: no expiry' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from rotate" -l description -d 'Free-text description of the new token' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from rotate" -l store -d 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token\'s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica\'s ledger file' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from rotate" -l store-ca -d 'The CA that signed the etcd members\' serving certificates (PEM): the store is reached over TLS' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from rotate" -l store-cert -d 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from rotate" -l store-key -d 'The client certificate\'s key (PEM)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from rotate" -l store-prefix -d 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from rotate" -l dir -d 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from rotate" -s o -l format -d 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl' -r -f -a "text\t'Text for people: tables and summaries'
json\t'One JSON document (schemas in docs/scripting.md), for scripts'
yaml\t'The same document in YAML (keys sorted, as `oc -o yaml` writes)'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from rotate" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from rotate" -l store-insecure -d 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from rotate" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from rotate" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from rotate" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from rotate" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from rotate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from rotate" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from list" -l dir -d 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from list" -s o -l format -d 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl' -r -f -a "text\t'Text for people: tables and summaries'
json\t'One JSON document (schemas in docs/scripting.md), for scripts'
yaml\t'The same document in YAML (keys sorted, as `oc -o yaml` writes)'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from list" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from list" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from list" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from revoke" -l store -d 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token\'s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica\'s ledger file' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from revoke" -l store-ca -d 'The CA that signed the etcd members\' serving certificates (PEM): the store is reached over TLS' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from revoke" -l store-cert -d 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from revoke" -l store-key -d 'The client certificate\'s key (PEM)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from revoke" -l store-prefix -d 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from revoke" -l dir -d 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from revoke" -s o -l format -d 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl' -r -f -a "text\t'Text for people: tables and summaries'
json\t'One JSON document (schemas in docs/scripting.md), for scripts'
yaml\t'The same document in YAML (keys sorted, as `oc -o yaml` writes)'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from revoke" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from revoke" -l store-insecure -d 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from revoke" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from revoke" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from revoke" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from revoke" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from revoke" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from revoke" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from prune" -l store -d 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token\'s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica\'s ledger file' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from prune" -l store-ca -d 'The CA that signed the etcd members\' serving certificates (PEM): the store is reached over TLS' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from prune" -l store-cert -d 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from prune" -l store-key -d 'The client certificate\'s key (PEM)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from prune" -l store-prefix -d 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from prune" -l dir -d 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from prune" -s o -l format -d 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl' -r -f -a "text\t'Text for people: tables and summaries'
json\t'One JSON document (schemas in docs/scripting.md), for scripts'
yaml\t'The same document in YAML (keys sorted, as `oc -o yaml` writes)'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from prune" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from prune" -l store-insecure -d 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from prune" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from prune" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from prune" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from prune" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from prune" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from prune" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from publish" -l store -d 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token\'s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica\'s ledger file' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from publish" -l store-ca -d 'The CA that signed the etcd members\' serving certificates (PEM): the store is reached over TLS' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from publish" -l store-cert -d 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from publish" -l store-key -d 'The client certificate\'s key (PEM)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from publish" -l store-prefix -d 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from publish" -l dir -d 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from publish" -s o -l format -d 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl' -r -f -a "text\t'Text for people: tables and summaries'
json\t'One JSON document (schemas in docs/scripting.md), for scripts'
yaml\t'The same document in YAML (keys sorted, as `oc -o yaml` writes)'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from publish" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from publish" -l store-insecure -d 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from publish" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from publish" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from publish" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from publish" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from publish" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from publish" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from help" -f -a "create" -d 'Create a new token, the current one (carried by pointer configs) of each pool without one'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from help" -f -a "rotate" -d 'Make a new current token, keep the old one valid for --grace, rewrite every pointer config'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from help" -f -a "list" -d 'List tokens (ids, states, expiry; never secrets)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from help" -f -a "revoke" -d 'Revoke a token by id'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from help" -f -a "prune" -d 'Remove expired and revoked tokens from auth/tokens.json'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from help" -f -a "publish" -d 'Publish the directory\'s tokens to the store serve replicas share (again, after a publish failed, or to move the directory to another store)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand token; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and not __fish_seen_subcommand_from add list remove watch help" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and not __fish_seen_subcommand_from add list remove watch help" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and not __fish_seen_subcommand_from add list remove watch help" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and not __fish_seen_subcommand_from add list remove watch help" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and not __fish_seen_subcommand_from add list remove watch help" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and not __fish_seen_subcommand_from add list remove watch help" -s h -l help -d 'Print help'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and not __fish_seen_subcommand_from add list remove watch help" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and not __fish_seen_subcommand_from add list remove watch help" -f -a "add" -d 'Register a machine: its own pointer config (machines/NAME.ign) with a token bound to it, scoped to its pool, single-use by default'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and not __fish_seen_subcommand_from add list remove watch help" -f -a "list" -d 'List the registered machines (tokens by id, never secrets)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and not __fish_seen_subcommand_from add list remove watch help" -f -a "remove" -d 'Unregister a machine: its token is revoked, its pointer config removed'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and not __fish_seen_subcommand_from add list remove watch help" -f -a "watch" -d 'Follow the machines\' timelines until each is done or stopped (a table on a terminal, a JSON line per change otherwise)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and not __fish_seen_subcommand_from add list remove watch help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from add" -l pool -d 'The pool whose config it fetches' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from add" -l ip -d 'An address the machine is expected at (repeatable): a serving CSR may name it' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from add" -l from -d 'Register every machine of a list: CSV lines `name,pool,addresses` (addresses separated by spaces or \';\'), or YAML (a list of {name, pool, addresses}); - for stdin' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from add" -l ttl -d 'Lifetime of its token (e.g. 24h); default: no expiry' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from add" -l uses -d 'How many full-config fetches its token allows (0: any number)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from add" -l store -d 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token\'s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica\'s ledger file' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from add" -l store-ca -d 'The CA that signed the etcd members\' serving certificates (PEM): the store is reached over TLS' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from add" -l store-cert -d 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from add" -l store-key -d 'The client certificate\'s key (PEM)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from add" -l store-prefix -d 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from add" -l dir -d 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from add" -s o -l format -d 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl' -r -f -a "text\t'Text for people: tables and summaries'
json\t'One JSON document (schemas in docs/scripting.md), for scripts'
yaml\t'The same document in YAML (keys sorted, as `oc -o yaml` writes)'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from add" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from add" -l force -d 'Replace a machine of that name (its old token is revoked)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from add" -l new-pool -d 'The pool is new, not a typo: it may have no rendered config and not be in mcsctl.json\'s pools (it is added there). Without it such a pool is refused, naming the known ones'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from add" -l store-insecure -d 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from add" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from add" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from add" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from add" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from list" -l ledger -d 'Another replica\'s ledger to merge (repeatable); every <dir>/auth/ledger/*.jsonl is read' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from list" -l csrs -d 'The cluster\'s CSRs (`oc get csr -o json`): each machine\'s trail goes on to its CSRs' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from list" -l nodes -d 'The cluster\'s Nodes (`oc get nodes -o json`): the trail ends at a Ready node' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from list" -l store -d 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token\'s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica\'s ledger file' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from list" -l store-ca -d 'The CA that signed the etcd members\' serving certificates (PEM): the store is reached over TLS' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from list" -l store-cert -d 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from list" -l store-key -d 'The client certificate\'s key (PEM)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from list" -l store-prefix -d 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from list" -l dir -d 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from list" -s o -l format -d 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl' -r -f -a "text\t'Text for people: tables and summaries'
json\t'One JSON document (schemas in docs/scripting.md), for scripts'
yaml\t'The same document in YAML (keys sorted, as `oc -o yaml` writes)'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from list" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from list" -l store-insecure -d 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from list" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from list" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from remove" -l store -d 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token\'s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica\'s ledger file' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from remove" -l store-ca -d 'The CA that signed the etcd members\' serving certificates (PEM): the store is reached over TLS' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from remove" -l store-cert -d 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from remove" -l store-key -d 'The client certificate\'s key (PEM)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from remove" -l store-prefix -d 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from remove" -l dir -d 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from remove" -s o -l format -d 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl' -r -f -a "text\t'Text for people: tables and summaries'
json\t'One JSON document (schemas in docs/scripting.md), for scripts'
yaml\t'The same document in YAML (keys sorted, as `oc -o yaml` writes)'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from remove" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from remove" -l store-insecure -d 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from remove" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from remove" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from remove" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from remove" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from remove" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from remove" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from watch" -l ledger -d 'Another replica\'s ledger to merge (repeatable); every <dir>/auth/ledger/*.jsonl is read' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from watch" -l csrs -d 'The cluster\'s CSRs (`oc get csr -o json`): each machine\'s trail goes on to its CSRs' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from watch" -l nodes -d 'The cluster\'s Nodes (`oc get nodes -o json`): the trail ends at a Ready node' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from watch" -l store -d 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token\'s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica\'s ledger file' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from watch" -l store-ca -d 'The CA that signed the etcd members\' serving certificates (PEM): the store is reached over TLS' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from watch" -l store-cert -d 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from watch" -l store-key -d 'The client certificate\'s key (PEM)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from watch" -l store-prefix -d 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from watch" -l dir -d 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from watch" -s o -l format -d 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl' -r -f -a "text\t'Text for people: tables and summaries'
json\t'One JSON document (schemas in docs/scripting.md), for scripts'
yaml\t'The same document in YAML (keys sorted, as `oc -o yaml` writes)'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from watch" -l timeout -d 'How long to watch before giving up (exit 1)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from watch" -l interval -d 'How often to look again' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from watch" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from watch" -l store-insecure -d 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from watch" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from watch" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from watch" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from watch" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from watch" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from watch" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from help" -f -a "add" -d 'Register a machine: its own pointer config (machines/NAME.ign) with a token bound to it, scoped to its pool, single-use by default'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the registered machines (tokens by id, never secrets)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from help" -f -a "remove" -d 'Unregister a machine: its token is revoked, its pointer config removed'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from help" -f -a "watch" -d 'Follow the machines\' timelines until each is done or stopped (a table on a terminal, a JSON line per change otherwise)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand machine; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand inspect" -l remote -d 'Connect to a live TLS endpoint, show the chain it presents and check each named pointer config against it' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand inspect" -l server-name -d 'Server name to send (SNI) with --remote (default: the host of HOST:PORT)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand inspect" -l ca -d 'CA bundle to verify --remote against (default: the asset CA bundle when present)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand inspect" -l warn-within -d 'Warn (exit 3) about certificates expiring within this duration' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand inspect" -l ledger -d 'Another replica\'s ledger to read machine tokens\' fetches from (repeatable); every <dir>/auth/ledger/*.jsonl is read' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand inspect" -l store -d 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token\'s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica\'s ledger file' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand inspect" -l store-ca -d 'The CA that signed the etcd members\' serving certificates (PEM): the store is reached over TLS' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand inspect" -l store-cert -d 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand inspect" -l store-key -d 'The client certificate\'s key (PEM)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand inspect" -l store-prefix -d 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand inspect" -l dir -d 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand inspect" -s o -l format -d 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl' -r -f -a "text\t'Text for people: tables and summaries'
json\t'One JSON document (schemas in docs/scripting.md), for scripts'
yaml\t'The same document in YAML (keys sorted, as `oc -o yaml` writes)'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand inspect" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand inspect" -l store-insecure -d 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand inspect" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand inspect" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand inspect" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand inspect" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand inspect" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand inspect" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand render" -l machine-configs -d 'MachineConfigs: a YAML or JSON file (multi-document or `kind: List`), a directory of them, or -' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand render" -l controller-config -d 'The cluster\'s ControllerConfig (`oc get controllerconfig machine-config-controller -o yaml`), whose OS and extensions images controller-generated MachineConfigs take, as the MCO merges them (one among the --machine-configs inputs is taken too)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand render" -l from-cluster -d 'What the in-cluster MCS would serve, from a snapshot of the cluster (`oc get -o yaml` of the MachineConfigPools, MachineConfigs, ControllerConfig, the node-bootstrapper-token Secret and the kubeconfig-data ConfigMap): a file, a YAML stream, a directory, or -' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand render" -l for -d 'What the configs are for (default: the flavour recorded in mcsctl.json, else openshift); recorded' -r -f -a "openshift\t'OpenShift / OKD nodes: what the MCS serves (MCO merge rules, node annotations, bootstrap kubeconfig, the MachineConfig for the machine-config daemon\'s firstboot)'
coreos\t'Fedora CoreOS fleets with no machine-config daemon: plain Ignition, kernel arguments as Ignition kernelArguments; fips, kernelType, extensions and osImageURL are refused'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand render" -l bootstrap-kubeconfig -d 'The kubelet\'s bootstrap kubeconfig (kept as auth/bootstrap-kubeconfig, 0600, for later renders)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand render" -l spec-version -d 'Ignition spec of the coreos flavour\'s output, 3.0.0 to 3.5.0 (default: the newest input version, at least 3.2.0). The openshift flavour keeps the MCO\'s internal 3.5.0 and serve answers each client at its own spec, as the MCS does' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand render" -l allow-sensitive -d 'A file path (or systemd unit name) allowed to hold a secret in the pre-approval set; repeatable' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand render" -l current -d 'The cluster\'s current rendered MachineConfig of the pool (`oc get mc rendered-<pool>-<hash> -o yaml`): the new merge is checked against it by the MCO\'s reconcile rules, as on a running cluster. Without it, against the directory\'s rendered/<pool>.ign; a pool with neither is a first render, not checked' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand render" -l allow-irreconcilable -d 'Storage sections a day-2 render may change although running nodes never apply them in place (the MCO\'s IrreconcilableValidationOverrides.storage): disks, filesystems, raid; comma-separated or repeated. Existing nodes keep their config; new machines get the new one' -r -f -a "disks\t'storage.disks'
filesystems\t'storage.filesystems'
raid\t'storage.raid'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand render" -l from-mcs -d 'Store what a live config server serves for --pool (the in-cluster MCS, or another mcsctl serve)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand render" -l pool -d 'The pool to fetch with --from-mcs (appended to the URL as /config/POOL when it has no path); with --from-cluster, the one pool to take (default: every pool)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand render" -l ca -d 'CA bundle the server\'s certificate must chain to: PEM, or a pointer config that trusts it (default: tls/mcs-ca-bundle.crt)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand render" -l token -d 'Bearer token for --from-mcs (or from the environment, so it stays out of `ps`)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand render" -l dir -d 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand render" -s o -l format -d 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl' -r -f -a "text\t'Text for people: tables and summaries'
json\t'One JSON document (schemas in docs/scripting.md), for scripts'
yaml\t'The same document in YAML (keys sorted, as `oc -o yaml` writes)'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand render" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand render" -l strict -d 'Refuse what the MCO would drop (unknown spec fields, unknown Ignition keys) instead of dropping it with a warning'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand render" -l no-bootstrap-kubeconfig -d 'OpenShift configs without a bootstrap kubeconfig are meant (nodes booted from them never join): without it, render refuses them'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand render" -l force -d 'Replace a different auth/bootstrap-kubeconfig'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand render" -l report -d 'Add the first-boot report to the full config of each pool rendered: once up after Ignition, a machine posts one report to serve (`machine list` shows it). Remembered in mcsctl.json for later renders; the pre-approval set never carries it'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand render" -l no-report -d 'Stop adding the first-boot report to the pools rendered (remembered)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand render" -l replace -d 'Replace a pool\'s config even when MachineConfigs, files or units it serves now would disappear (without it render refuses and names them)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand render" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand render" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand render" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand render" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand render" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand render" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l log-format -d 'How the access log (stdout) and events (stderr) are written: readable lines (text), JSON lines (json), or auto: text on a terminal, JSON otherwise, for each stream' -r -f -a "auto\t'Text on a terminal, JSON lines otherwise (each of stdout and stderr decides)'
json\t'JSON lines: one object a line, for log collectors'
text\t'Readable lines: time, what, fields'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l metrics-listen -d 'Answer Prometheus scrapes at http://ADDR/metrics (plain HTTP; 127.0.0.1:9623 when given without ADDR): requests by pool, status and auth outcome, failed handshakes, machine fetches, token and certificate expiry, reloads, config sizes, connections' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l ledger -d 'Where this replica records each fetch of a machine token (default <dir>/auth/ledger/<hostname>.jsonl), locked while serve writes it; every ledger under <dir>/auth/ledger counts, read on at each reload poll' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l store -d 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token\'s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica\'s ledger file' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l store-ca -d 'The CA that signed the etcd members\' serving certificates (PEM): the store is reached over TLS' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l store-cert -d 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l store-key -d 'The client certificate\'s key (PEM)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l store-prefix -d 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l store-grace -d 'With --store: how long pool tokens keep being served from the last state the store published while it does not answer (machine tokens wait for it at once: 503); then they get 503 too, until it answers' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l store-lease -d 'With --store: the lease this replica holds its fetches under, renewed every third of it. A replica that stops renewing it (killed, paused, cut off from the members) is taken for gone once it ends, by the store\'s clock: its fetches that had not begun sending their end are given back. Shorter frees a dead replica\'s machines sooner; at least 2s' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l max-partial-fetches -d 'How many fetches of a machine token with limited uses may be cut off before their end (a network that drops, a client that stops reading): each gives the use back and the machine may fetch again; past this many, the token is refused (401) until `mcsctl machine add NAME --force` gives it a new one' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l listen -d 'HTTPS listen address' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l insecure-listen -d 'Also listen for plain HTTP (the MCS historically used port 22624). Off by default' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l auth -d 'Auth mode (default: serveAuth of mcsctl.json, else token; never chosen by how many tokens are live)' -r -f -a "token\t'A valid provisioning token is required (401 otherwise)'
split\t'Without a valid token, serve rendered/pre-approval/<pool>.ign; with one, the full config'
none\t'Full configs to anyone (a loud warning at start)'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l header-timeout -d 'Time allowed to send a request\'s headers; also the idle keep-alive timeout' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l handshake-timeout -d 'Time allowed for a TLS handshake (and a PROXY protocol header)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l write-timeout -d 'How long a response may stay unsent because the client does not read; then the connection is cut' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l min-send-rate -d 'Average bytes per second a response must be read at once it has taken longer than --write-timeout; a slower reader is cut off (a `slow-client` event)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l connection-deadline -d 'How long one connection may stay open; then it is closed after the request in flight (which gets --write-timeout more to finish)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l proxy-protocol-from -d 'Load balancer (address or CIDR) whose connections start with a PROXY protocol v1/v2 header; repeatable (default: proxyProtocolFrom of mcsctl.json)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l max-connections -d 'Most connections open at once; past it, an idle connection of the client holding the most is closed to let a newcomer in (none idle: the newcomer is closed)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l max-connections-per-client -d 'Most connections one client (address; IPv6 /64; behind a PROXY-protocol balancer, the client it names) may hold (default: an eighth of --max-connections)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l max-header-bytes -d 'Largest request head in bytes; larger requests get 431' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l reload-interval -d 'How often to look for changed certificates, tokens and rendered configs (SIGHUP reloads at once)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l drain-timeout -d 'How long SIGTERM waits for in-flight requests before exiting' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l max-failures -d 'Unknown tokens per client (address; IPv6 /64) per minute before it gets 429; valid tokens are always served' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l block-for -d 'How long a client that exceeded --max-failures gets 429' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l dir -d 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l store-insecure -d 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l reload -d 'Do not serve: send SIGHUP to the serve(s) of --dir, found by the run/serve-PID.pid files each writes there, and exit (1 when none is running)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand serve" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand doctor" -l resolve -d 'Use ADDR for HOST instead of DNS, like curl: HOST:ADDR or HOST:PORT:ADDR; repeatable' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand doctor" -l ignition-spec -d 'The newest Ignition spec the simulated client reads (Ignition 2.14 reads 3.3.0, 2.20 reads 3.5.0); a newer pointer config fails at step parse' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand doctor" -l timeout -d 'Time allowed for each network step' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand doctor" -l dir -d 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand doctor" -s o -l format -d 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl' -r -f -a "text\t'Text for people: tables and summaries'
json\t'One JSON document (schemas in docs/scripting.md), for scripts'
yaml\t'The same document in YAML (keys sorted, as `oc -o yaml` writes)'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand doctor" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand doctor" -l fetch -d 'Fetch the config even when the pointer\'s token has limited uses (a machine\'s single-use token): that spends one, and the machine then gets 401. Without it such a token is checked with HEAD (TLS, auth, its state), which spends nothing'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand doctor" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand doctor" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand doctor" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand doctor" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand doctor" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand doctor" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and not __fish_seen_subcommand_from review sign help" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and not __fish_seen_subcommand_from review sign help" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and not __fish_seen_subcommand_from review sign help" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and not __fish_seen_subcommand_from review sign help" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and not __fish_seen_subcommand_from review sign help" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and not __fish_seen_subcommand_from review sign help" -s h -l help -d 'Print help'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and not __fish_seen_subcommand_from review sign help" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and not __fish_seen_subcommand_from review sign help" -f -a "review" -d 'Decide, for each pending kubelet CSR, approve / leave pending / ignore, and why'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and not __fish_seen_subcommand_from review sign help" -f -a "sign" -d 'Issue a kubelet client or serving certificate for a CSR from a CA'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and not __fish_seen_subcommand_from review sign help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -l csrs -d 'CSRs: `oc get csr -o json` output (a List or one object, JSON or YAML), or - for stdin' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -l machines -d 'Machines: `oc get machines -A -o json` (Machine API clusters)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -l nodes -d 'Nodes: `oc get nodes -o json`' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -l inventory -d 'UPI inventory of expected hosts (format in docs/node-admission.md), instead of or besides --machines' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -l now -d 'The time to decide at (RFC 3339); default: now. Makes decisions reproducible' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -l kubelet-ca -d 'Kubelet CA bundle (ConfigMap openshift-config-managed/csr-controller-ca, ca-bundle.crt); enables renewals' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -l serving-certs -d 'Directory of the serving certificates nodes present now, one PEM per node: <node>.pem or <node>.crt' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -l fetch-timeout -d 'Time allowed for each kubelet connection with --fetch-serving-certs' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -l network-type -d 'The cluster\'s network type (networks.config.openshift.io/cluster status.networkType)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -l host-subnets -d 'OpenShiftSDN HostSubnets (`oc get hostsubnets -o json`) for the egress-IP fallback' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -l approver-config -d 'cluster-machine-approver config file (YAML); honours nodeClientCert.disabled' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -l window -d 'With evidence: how long after a machine\'s first fetch its client CSR may come' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -l clock-skew -d 'With evidence: how far serve\'s clock (the ledger\'s times) and the API server\'s (the CSRs\') may disagree; a client CSR is judged against the window widened by this much on either side' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -l ledger -d 'With evidence: another replica\'s ledger to merge (repeatable)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -l store -d 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token\'s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica\'s ledger file' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -l store-ca -d 'The CA that signed the etcd members\' serving certificates (PEM): the store is reached over TLS' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -l store-cert -d 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -l store-key -d 'The client certificate\'s key (PEM)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -l store-prefix -d 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -l dir -d 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -s o -l format -d 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl' -r -f -a "text\t'Text for people: tables and summaries'
json\t'One JSON document (schemas in docs/scripting.md), for scripts'
yaml\t'The same document in YAML (keys sorted, as `oc -o yaml` writes)'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -l fetch-serving-certs -d 'Fetch each node\'s current serving certificate from its kubelet (first InternalIP, kubelet port)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -l approve-names -d 'Print only the names of CSRs to approve, one a line (for `xargs oc adm certificate approve`)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -l evidence -d 'Decide from evidence: a client CSR only for a machine registered with `machine add` whose token fetched its config (the ledger) within --window before it; a serving CSR only for the fetch and registered addresses. The default when the asset directory has registered machines and neither --machines nor --inventory is given'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -l store-insecure -d 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from review" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from sign" -l csr -d 'The request: a PEM CERTIFICATE REQUEST, or a CertificateSigningRequest object (JSON or YAML)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from sign" -l ca-cert -d 'The kubelet signer\'s CA certificate (the cluster\'s csr-signer). Never the MCS CA: a signer that pointer configs or the MCS bundle trust is refused' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from sign" -l ca-key -d 'The kubelet signer\'s private key' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from sign" -l address -d 'An address of the node a serving certificate may name besides the node name (its InternalIP, ExternalIP or a hostname, as `oc get node NAME -o wide` shows); repeatable' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from sign" -l validity -d 'Validity of the certificate; never beyond the CA\'s' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from sign" -l output -d 'Where to write the certificate PEM (default: stdout)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from sign" -l dir -d 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from sign" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from sign" -l force -d 'Replace an existing output file'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from sign" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from sign" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from sign" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from sign" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from sign" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from sign" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from help" -f -a "review" -d 'Decide, for each pending kubelet CSR, approve / leave pending / ignore, and why'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from help" -f -a "sign" -d 'Issue a kubelet client or serving certificate for a CSR from a CA'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand csr; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand manifests" -l output -d 'Directory to write into (default: <dir>/manifests)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand manifests" -l image -d 'Container image with mcsctl, for --serve-deployment' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand manifests" -l namespace -d 'Namespace of the serve Deployment, Service and their Secrets' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand manifests" -l service-type -d 'How booting machines reach the serve Service (with --host-network: the nodes\' port 22623 instead)' -r -f -a "NodePort\t'Port 32623 on every node (reachable by booting machines with no load-balancer integration)'
LoadBalancer\t'A load balancer from the platform (cloud, MetalLB)'
ClusterIP\t'Inside the cluster only: booting machines cannot reach it'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand manifests" -l auth -d 'Auth mode of the deployed serve' -r -f -a "token\t'A valid provisioning token is required (401 otherwise)'
split\t'Without a valid token, serve rendered/pre-approval/<pool>.ign; with one, the full config'
none\t'Full configs to anyone (a loud warning at start)'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand manifests" -l replicas -d 'Replicas of the serve Deployment. With machine tokens in the asset directory and no --store it must be 1: each replica would keep a ledger of its own, and a single-use token spent on one would fetch again on another' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand manifests" -l store -d 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token\'s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica\'s ledger file' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand manifests" -l store-ca -d 'The CA that signed the etcd members\' serving certificates (PEM): the store is reached over TLS' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand manifests" -l store-cert -d 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand manifests" -l store-key -d 'The client certificate\'s key (PEM)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand manifests" -l store-prefix -d 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand manifests" -l dir -d 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand manifests" -s o -l format -d 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl' -r -f -a "text\t'Text for people: tables and summaries'
json\t'One JSON document (schemas in docs/scripting.md), for scripts'
yaml\t'The same document in YAML (keys sorted, as `oc -o yaml` writes)'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand manifests" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand manifests" -l serve-deployment -d 'Also write what runs `mcsctl serve` from Secrets: a Deployment (--replicas, 2) and a Service, or with --host-network a DaemonSet on the control plane nodes. A single replica records machine-token fetches on a PersistentVolumeClaim'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand manifests" -l host-network -d 'Run serve on the control plane nodes\' host network, port 22623 (where a UPI load balancer already points, as the real MCS runs), tolerating their taints'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand manifests" -l store-insecure -d 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand manifests" -l include-ca-key -d 'Also write the MCS CA\'s private key (Secret openshift-machine-config-operator/ machine-config-server-ca), for a cluster whose MCO rotates the CA itself (4.19+). Without it the key stays offline in the asset directory'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand manifests" -l include-root-ca -d 'Also write ConfigMap kube-system/root-ca with the MCS CA: only for a cluster whose root-ca was made by this asset directory (openshift-install writes it at install; it serves more than the MCS)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand manifests" -l force -d 'Replace existing files'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand manifests" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand manifests" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand manifests" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand manifests" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand manifests" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand manifests" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ledger; and not __fish_seen_subcommand_from import help" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ledger; and not __fish_seen_subcommand_from import help" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ledger; and not __fish_seen_subcommand_from import help" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ledger; and not __fish_seen_subcommand_from import help" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ledger; and not __fish_seen_subcommand_from import help" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ledger; and not __fish_seen_subcommand_from import help" -s h -l help -d 'Print help'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ledger; and not __fish_seen_subcommand_from import help" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ledger; and not __fish_seen_subcommand_from import help" -f -a "import" -d 'Import the ledger files (<dir>/auth/ledger/*.jsonl and --ledger) into the store: every fetch record, and each single-use token\'s fetches counted there, so a token spent before the move stays spent on every replica after it. Run it again at will: a record is imported once'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ledger; and not __fish_seen_subcommand_from import help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ledger; and __fish_seen_subcommand_from import" -l ledger -d 'Another replica\'s ledger to import too (repeatable)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ledger; and __fish_seen_subcommand_from import" -l store -d 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token\'s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica\'s ledger file' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ledger; and __fish_seen_subcommand_from import" -l store-ca -d 'The CA that signed the etcd members\' serving certificates (PEM): the store is reached over TLS' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ledger; and __fish_seen_subcommand_from import" -l store-cert -d 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ledger; and __fish_seen_subcommand_from import" -l store-key -d 'The client certificate\'s key (PEM)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ledger; and __fish_seen_subcommand_from import" -l store-prefix -d 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ledger; and __fish_seen_subcommand_from import" -l dir -d 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ledger; and __fish_seen_subcommand_from import" -s o -l format -d 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl' -r -f -a "text\t'Text for people: tables and summaries'
json\t'One JSON document (schemas in docs/scripting.md), for scripts'
yaml\t'The same document in YAML (keys sorted, as `oc -o yaml` writes)'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ledger; and __fish_seen_subcommand_from import" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ledger; and __fish_seen_subcommand_from import" -l store-insecure -d 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ledger; and __fish_seen_subcommand_from import" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ledger; and __fish_seen_subcommand_from import" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ledger; and __fish_seen_subcommand_from import" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ledger; and __fish_seen_subcommand_from import" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ledger; and __fish_seen_subcommand_from import" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ledger; and __fish_seen_subcommand_from import" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ledger; and __fish_seen_subcommand_from help" -f -a "import" -d 'Import the ledger files (<dir>/auth/ledger/*.jsonl and --ledger) into the store: every fetch record, and each single-use token\'s fetches counted there, so a token spent before the move stays spent on every replica after it. Run it again at will: a record is imported once'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand ledger; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand completions" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand completions" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand completions" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand completions" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand completions" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand completions" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand man" -l output -d 'Directory to write the pages into (created when missing)' -r -F
complete -c mcsctl -n "__fish_mcsctl_using_subcommand man" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand man" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand man" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand man" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand man" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand man" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand man" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand version" -s o -l format -d 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl' -r -f -a "text\t'Text for people: tables and summaries'
json\t'One JSON document (schemas in docs/scripting.md), for scripts'
yaml\t'The same document in YAML (keys sorted, as `oc -o yaml` writes)'"
complete -c mcsctl -n "__fish_mcsctl_using_subcommand version" -l max-input-size -d 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused' -r
complete -c mcsctl -n "__fish_mcsctl_using_subcommand version" -s q -l quiet -d 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand version" -s v -l verbose -d 'Also print, on stderr, each file read and written and each decision taken'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand version" -l non-interactive -d 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand version" -l dry-run -d 'Do everything but write: the command\'s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand version" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand version" -s V -l version -d 'Print version'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and not __fish_seen_subcommand_from init ca cert pointer token machine inspect render serve doctor csr manifests ledger completions man version help" -f -a "init" -d 'Create the whole asset directory in one step: CA, serving certificate, token, pointer configs'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and not __fish_seen_subcommand_from init ca cert pointer token machine inspect render serve doctor csr manifests ledger completions man version help" -f -a "ca" -d 'Create, import or rotate the MCS CA'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and not __fish_seen_subcommand_from init ca cert pointer token machine inspect render serve doctor csr manifests ledger completions man version help" -f -a "cert" -d 'Issue or renew the MCS serving certificate'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and not __fish_seen_subcommand_from init ca cert pointer token machine inspect render serve doctor csr manifests ledger completions man version help" -f -a "pointer" -d 'Write an Ignition pointer config for a pool'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and not __fish_seen_subcommand_from init ca cert pointer token machine inspect render serve doctor csr manifests ledger completions man version help" -f -a "token" -d 'Manage bearer provisioning tokens'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and not __fish_seen_subcommand_from init ca cert pointer token machine inspect render serve doctor csr manifests ledger completions man version help" -f -a "machine" -d 'Register the machines a UPI cluster expects, each with its own single-use pointer config'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and not __fish_seen_subcommand_from init ca cert pointer token machine inspect render serve doctor csr manifests ledger completions man version help" -f -a "inspect" -d 'Check expiry and consistency of certificates, pointer configs, the asset directory or a live endpoint'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and not __fish_seen_subcommand_from init ca cert pointer token machine inspect render serve doctor csr manifests ledger completions man version help" -f -a "render" -d 'Render MachineConfigs into rendered/<pool>.ign and the pre-approval subset'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and not __fish_seen_subcommand_from init ca cert pointer token machine inspect render serve doctor csr manifests ledger completions man version help" -f -a "serve" -d 'Serve rendered configs over TLS to booting machines (the Machine Config Server)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and not __fish_seen_subcommand_from init ca cert pointer token machine inspect render serve doctor csr manifests ledger completions man version help" -f -a "doctor" -d 'Do what Ignition does with a pointer config, step by step, and say which step fails'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and not __fish_seen_subcommand_from init ca cert pointer token machine inspect render serve doctor csr manifests ledger completions man version help" -f -a "csr" -d 'Review kubelet CSRs by the cluster-machine-approver\'s rules, or sign one'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and not __fish_seen_subcommand_from init ca cert pointer token machine inspect render serve doctor csr manifests ledger completions man version help" -f -a "manifests" -d 'Write Kubernetes objects for the cluster, and optionally a Deployment running `mcsctl serve`'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and not __fish_seen_subcommand_from init ca cert pointer token machine inspect render serve doctor csr manifests ledger completions man version help" -f -a "ledger" -d 'Move the provisioning ledger files into the store serve replicas share'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and not __fish_seen_subcommand_from init ca cert pointer token machine inspect render serve doctor csr manifests ledger completions man version help" -f -a "completions" -d 'Print a static shell completion script to stdout (commands and flags). For completions that also offer the asset directory\'s pools, token ids and machines, have the shell ask mcsctl: `source <(COMPLETE=bash mcsctl)` in ~/.bashrc (zsh alike; fish: `COMPLETE=fish mcsctl | source`)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and not __fish_seen_subcommand_from init ca cert pointer token machine inspect render serve doctor csr manifests ledger completions man version help" -f -a "man" -d 'Write one man page per command into a directory'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and not __fish_seen_subcommand_from init ca cert pointer token machine inspect render serve doctor csr manifests ledger completions man version help" -f -a "version" -d 'Print mcsctl\'s version, the commit and target it was built for, and the TLS and Ignition spec versions it speaks'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and not __fish_seen_subcommand_from init ca cert pointer token machine inspect render serve doctor csr manifests ledger completions man version help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and __fish_seen_subcommand_from ca" -f -a "create" -d 'Create the MCS CA; with --force over an existing one, rotate to a new CA and promote it at once'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and __fish_seen_subcommand_from ca" -f -a "import" -d 'Adopt an existing CA (openshift-install\'s tls/root-ca.{crt,key}), or trust a cluster\'s CA bundle'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and __fish_seen_subcommand_from ca" -f -a "rotate" -d 'Phase 1 of 3: introduce a new CA beside the active one; pointer configs trust both'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and __fish_seen_subcommand_from ca" -f -a "promote" -d 'Phase 2 of 3: re-issue the serving certificate from the new CA, which becomes the active one'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and __fish_seen_subcommand_from ca" -f -a "retire" -d 'Phase 3 of 3: drop the previous CA from the bundle and every pointer config'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and __fish_seen_subcommand_from cert" -f -a "issue" -d 'Issue the serving certificate (tls/mcs.crt, tls/mcs.key), signed by the CA'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and __fish_seen_subcommand_from cert" -f -a "renew" -d 'Renew the serving certificate: same CA, same SANs, new key'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and __fish_seen_subcommand_from token" -f -a "create" -d 'Create a new token, the current one (carried by pointer configs) of each pool without one'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and __fish_seen_subcommand_from token" -f -a "rotate" -d 'Make a new current token, keep the old one valid for --grace, rewrite every pointer config'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and __fish_seen_subcommand_from token" -f -a "list" -d 'List tokens (ids, states, expiry; never secrets)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and __fish_seen_subcommand_from token" -f -a "revoke" -d 'Revoke a token by id'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and __fish_seen_subcommand_from token" -f -a "prune" -d 'Remove expired and revoked tokens from auth/tokens.json'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and __fish_seen_subcommand_from token" -f -a "publish" -d 'Publish the directory\'s tokens to the store serve replicas share (again, after a publish failed, or to move the directory to another store)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and __fish_seen_subcommand_from machine" -f -a "add" -d 'Register a machine: its own pointer config (machines/NAME.ign) with a token bound to it, scoped to its pool, single-use by default'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and __fish_seen_subcommand_from machine" -f -a "list" -d 'List the registered machines (tokens by id, never secrets)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and __fish_seen_subcommand_from machine" -f -a "remove" -d 'Unregister a machine: its token is revoked, its pointer config removed'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and __fish_seen_subcommand_from machine" -f -a "watch" -d 'Follow the machines\' timelines until each is done or stopped (a table on a terminal, a JSON line per change otherwise)'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and __fish_seen_subcommand_from csr" -f -a "review" -d 'Decide, for each pending kubelet CSR, approve / leave pending / ignore, and why'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and __fish_seen_subcommand_from csr" -f -a "sign" -d 'Issue a kubelet client or serving certificate for a CSR from a CA'
complete -c mcsctl -n "__fish_mcsctl_using_subcommand help; and __fish_seen_subcommand_from ledger" -f -a "import" -d 'Import the ledger files (<dir>/auth/ledger/*.jsonl and --ledger) into the store: every fetch record, and each single-use token\'s fetches counted there, so a token spent before the move stays spent on every replica after it. Run it again at will: a record is imported once'
