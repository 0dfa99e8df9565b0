
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'mcsctl' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'mcsctl'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'mcsctl' {
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets); also accepted after the command')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); also accepted after the command. `-o` as in oc and kubectl')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); also accepted after the command. `-o` as in oc and kubectl')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Create the whole asset directory in one step: CA, serving certificate, token, pointer configs')
            [CompletionResult]::new('ca', 'ca', [CompletionResultType]::ParameterValue, 'Create, import or rotate the MCS CA')
            [CompletionResult]::new('cert', 'cert', [CompletionResultType]::ParameterValue, 'Issue or renew the MCS serving certificate')
            [CompletionResult]::new('pointer', 'pointer', [CompletionResultType]::ParameterValue, 'Write an Ignition pointer config for a pool')
            [CompletionResult]::new('token', 'token', [CompletionResultType]::ParameterValue, 'Manage bearer provisioning tokens')
            [CompletionResult]::new('machine', 'machine', [CompletionResultType]::ParameterValue, 'Register the machines a UPI cluster expects, each with its own single-use pointer config')
            [CompletionResult]::new('inspect', 'inspect', [CompletionResultType]::ParameterValue, 'Check expiry and consistency of certificates, pointer configs, the asset directory or a live endpoint')
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, 'Render MachineConfigs into rendered/<pool>.ign and the pre-approval subset')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve rendered configs over TLS to booting machines (the Machine Config Server)')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Do what Ignition does with a pointer config, step by step, and say which step fails')
            [CompletionResult]::new('csr', 'csr', [CompletionResultType]::ParameterValue, 'Review kubelet CSRs by the cluster-machine-approver''s rules, or sign one')
            [CompletionResult]::new('manifests', 'manifests', [CompletionResultType]::ParameterValue, 'Write Kubernetes objects for the cluster, and optionally a Deployment running `mcsctl serve`')
            [CompletionResult]::new('ledger', 'ledger', [CompletionResultType]::ParameterValue, 'Move the provisioning ledger files into the store serve replicas share')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a static shell completion script to stdout (commands and flags). For completions that also offer the asset directory''s pools, token ids and machines, have the shell ask mcsctl: `source <(COMPLETE=bash mcsctl)` in ~/.bashrc (zsh alike; fish: `COMPLETE=fish mcsctl | source`)')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Write one man page per command into a directory')
            [CompletionResult]::new('version', 'version', [CompletionResultType]::ParameterValue, 'Print mcsctl''s version, the commit and target it was built for, and the TLS and Ignition spec versions it speaks')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'mcsctl;init' {
            [CompletionResult]::new('--cluster-name', '--cluster-name', [CompletionResultType]::ParameterName, 'Cluster name (a DNS label), as in the install-config')
            [CompletionResult]::new('--base-domain', '--base-domain', [CompletionResultType]::ParameterName, 'Base domain (a DNS name); the MCS is reached at api-int.<cluster>.<base-domain>')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Where machines reach the MCS, if not at api-int (a load balancer): HOST, HOST:PORT or https://HOST:PORT; its host becomes a SAN')
            [CompletionResult]::new('--san', '--san', [CompletionResultType]::ParameterName, 'Extra subject alternative name of the serving certificate (DNS name or IP); repeatable')
            [CompletionResult]::new('--pool', '--pool', [CompletionResultType]::ParameterName, 'Machine pool to write a pointer config for; repeatable (default: worker and master)')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'Adopt this CA instead of creating one (openshift-install''s tls/root-ca.crt; PEM or DER)')
            [CompletionResult]::new('--ca-key', '--ca-key', [CompletionResultType]::ParameterName, 'The adopted CA''s private key (PEM or DER; PKCS#1, PKCS#8 or SEC1)')
            [CompletionResult]::new('--key-algorithm', '--key-algorithm', [CompletionResultType]::ParameterName, 'Key algorithm of the CA and serving keys (default ecdsa-p256)')
            [CompletionResult]::new('--ca-validity', '--ca-validity', [CompletionResultType]::ParameterName, 'Validity of the CA (e.g. 10y, 365d)')
            [CompletionResult]::new('--cert-validity', '--cert-validity', [CompletionResultType]::ParameterName, 'Validity of the serving certificate; never beyond the CA''s')
            [CompletionResult]::new('--token-transport', '--token-transport', [CompletionResultType]::ParameterName, 'How pointer configs carry the token: header or query')
            [CompletionResult]::new('--spec-version', '--spec-version', [CompletionResultType]::ParameterName, 'Ignition spec version of the pointer configs (3.0.0 to 3.4.0)')
            [CompletionResult]::new('--for', '--for', [CompletionResultType]::ParameterName, 'What `render` renders for: OpenShift nodes (the MCS payload) or plain CoreOS')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('--no-token', '--no-token', [CompletionResultType]::ParameterName, 'Do not create a provisioning token; pointer configs carry no credential')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace an existing, non-empty asset directory: the keys, tokens and pointer configs it replaces are kept under backup/<time>/ (and listed), pointer configs of pools no longer listed are removed; tls/retired/ is left as it is')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'With --force: replace the CA key without asking (needed without a terminal; every pointer config made from the old CA stops working)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'With --force: replace the CA key without asking (needed without a terminal; every pointer config made from the old CA stops working)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcsctl;ca' {
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create the MCS CA; with --force over an existing one, rotate to a new CA and promote it at once')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Adopt an existing CA (openshift-install''s tls/root-ca.{crt,key}), or trust a cluster''s CA bundle')
            [CompletionResult]::new('rotate', 'rotate', [CompletionResultType]::ParameterValue, 'Phase 1 of 3: introduce a new CA beside the active one; pointer configs trust both')
            [CompletionResult]::new('promote', 'promote', [CompletionResultType]::ParameterValue, 'Phase 2 of 3: re-issue the serving certificate from the new CA, which becomes the active one')
            [CompletionResult]::new('retire', 'retire', [CompletionResultType]::ParameterValue, 'Phase 3 of 3: drop the previous CA from the bundle and every pointer config')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'mcsctl;ca;create' {
            [CompletionResult]::new('--key-algorithm', '--key-algorithm', [CompletionResultType]::ParameterName, 'Key algorithm of the CA key')
            [CompletionResult]::new('--validity', '--validity', [CompletionResultType]::ParameterName, 'Validity of the CA')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace an existing CA: retire any previous CA, rotate to a new one and promote it in one step. Refused while pointer configs trust the CA (their copies would stop working) unless --yes; `ca rotate` keeps them working. No key is lost: the replaced CA''s key is kept as tls/mcs-ca-previous.key, a previous one''s under tls/retired/')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'With --force: replace the CA even though copies of the pointer configs stop working')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'With --force: replace the CA even though copies of the pointer configs stop working')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcsctl;ca;import' {
            [CompletionResult]::new('--cert', '--cert', [CompletionResultType]::ParameterName, 'CA certificate, PEM or DER')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'CA private key, PEM or DER (PKCS#1, PKCS#8 or SEC1)')
            [CompletionResult]::new('--bundle', '--bundle', [CompletionResultType]::ParameterName, 'A cluster''s CA bundle to trust exactly: the machine-config-server-ca or root-ca ConfigMap (oc get -o json|yaml), or PEM; with the Secret of the same name (or --key), its signing key. The directory''s own bundle again changes nothing; a bundle without the CA whose key is here needs --force, and that key is kept under tls/retired/')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace an existing CA (rotate to the imported one and promote it in one step). Refused while pointer configs trust the CA unless --yes; `ca rotate --cert --key` keeps them working. Not needed to put the active CA''s own key back. No key is lost: a replaced one is kept as tls/mcs-ca-previous.key or under tls/retired/ (and listed)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'With --force: replace the CA even though copies of the pointer configs stop working')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'With --force: replace the CA even though copies of the pointer configs stop working')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcsctl;ca;rotate' {
            [CompletionResult]::new('--key-algorithm', '--key-algorithm', [CompletionResultType]::ParameterName, 'Key algorithm of the new CA key (default: the active CA''s)')
            [CompletionResult]::new('--validity', '--validity', [CompletionResultType]::ParameterName, 'Validity of the new CA')
            [CompletionResult]::new('--cert', '--cert', [CompletionResultType]::ParameterName, 'Rotate to an existing CA instead of a new one: its certificate (PEM or DER)')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'The existing CA''s private key (PEM or DER)')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcsctl;ca;promote' {
            [CompletionResult]::new('--validity', '--validity', [CompletionResultType]::ParameterName, 'Validity of the re-issued serving certificate (never beyond the new CA''s)')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Promote even though some pointer configs here do not trust the new CA (they are named)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcsctl;ca;retire' {
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('--purge', '--purge', [CompletionResultType]::ParameterName, 'Also delete the keys of retired CAs kept under tls/retired/: the one way mcsctl deletes a CA key. Without it, the retired CA''s key is kept there (and listed)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcsctl;ca;help' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create the MCS CA; with --force over an existing one, rotate to a new CA and promote it at once')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Adopt an existing CA (openshift-install''s tls/root-ca.{crt,key}), or trust a cluster''s CA bundle')
            [CompletionResult]::new('rotate', 'rotate', [CompletionResultType]::ParameterValue, 'Phase 1 of 3: introduce a new CA beside the active one; pointer configs trust both')
            [CompletionResult]::new('promote', 'promote', [CompletionResultType]::ParameterValue, 'Phase 2 of 3: re-issue the serving certificate from the new CA, which becomes the active one')
            [CompletionResult]::new('retire', 'retire', [CompletionResultType]::ParameterValue, 'Phase 3 of 3: drop the previous CA from the bundle and every pointer config')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'mcsctl;ca;help;create' {
            break
        }
        'mcsctl;ca;help;import' {
            break
        }
        'mcsctl;ca;help;rotate' {
            break
        }
        'mcsctl;ca;help;promote' {
            break
        }
        'mcsctl;ca;help;retire' {
            break
        }
        'mcsctl;ca;help;help' {
            break
        }
        'mcsctl;cert' {
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('issue', 'issue', [CompletionResultType]::ParameterValue, 'Issue the serving certificate (tls/mcs.crt, tls/mcs.key), signed by the CA')
            [CompletionResult]::new('renew', 'renew', [CompletionResultType]::ParameterValue, 'Renew the serving certificate: same CA, same SANs, new key')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'mcsctl;cert;issue' {
            [CompletionResult]::new('--san', '--san', [CompletionResultType]::ParameterName, 'A subject alternative name (DNS name or IP) to add; repeatable. The certificate always names api-int and the hosts of the URLs in mcsctl.json, and keeps the current certificate''s names unless --replace-sans')
            [CompletionResult]::new('--key-algorithm', '--key-algorithm', [CompletionResultType]::ParameterName, 'Key algorithm of the serving key (default: the one recorded in mcsctl.json, else the CA''s)')
            [CompletionResult]::new('--validity', '--validity', [CompletionResultType]::ParameterName, 'Validity; never beyond the CA''s notAfter')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('--replace-sans', '--replace-sans', [CompletionResultType]::ParameterName, 'Leave out the current certificate''s names: the new one names api-int, the recorded URL hosts and --san only')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace an existing serving certificate')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcsctl;cert;renew' {
            [CompletionResult]::new('--key-algorithm', '--key-algorithm', [CompletionResultType]::ParameterName, 'Key algorithm of the new key (default: the one of the current key)')
            [CompletionResult]::new('--validity', '--validity', [CompletionResultType]::ParameterName, 'Validity; never beyond the CA''s notAfter')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcsctl;cert;help' {
            [CompletionResult]::new('issue', 'issue', [CompletionResultType]::ParameterValue, 'Issue the serving certificate (tls/mcs.crt, tls/mcs.key), signed by the CA')
            [CompletionResult]::new('renew', 'renew', [CompletionResultType]::ParameterValue, 'Renew the serving certificate: same CA, same SANs, new key')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'mcsctl;cert;help;issue' {
            break
        }
        'mcsctl;cert;help;renew' {
            break
        }
        'mcsctl;cert;help;help' {
            break
        }
        'mcsctl;pointer' {
            [CompletionResult]::new('--pool', '--pool', [CompletionResultType]::ParameterName, 'Machine pool (a DNS label, e.g. worker or master)')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Merge source URL, or the MCS address (HOST[:PORT], completed with /config/<pool>); remembered for the pool in mcsctl.json (default: init --url, else https://api-int.<cluster>.<base-domain>:22623/config/<pool>)')
            [CompletionResult]::new('--spec-version', '--spec-version', [CompletionResultType]::ParameterName, 'Ignition spec version (3.0.0 to 3.4.0; default from mcsctl.json)')
            [CompletionResult]::new('--token-transport', '--token-transport', [CompletionResultType]::ParameterName, 'How the token is carried (default from mcsctl.json; none for no token)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Where to write: a file, or - for stdout (default <dir>/<pool>.ign)')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('--base64', '--base64', [CompletionResultType]::ParameterName, 'Write the config base64-encoded, as cloud user-data fields expect')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace an existing file')
            [CompletionResult]::new('--new-pool', '--new-pool', [CompletionResultType]::ParameterName, 'The pool is new, not a typo: it may have no rendered config and not be in mcsctl.json''s pools (it is added there). Without it such a pool is refused, naming the known ones')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcsctl;token' {
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a new token, the current one (carried by pointer configs) of each pool without one')
            [CompletionResult]::new('rotate', 'rotate', [CompletionResultType]::ParameterValue, 'Make a new current token, keep the old one valid for --grace, rewrite every pointer config')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List tokens (ids, states, expiry; never secrets)')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Revoke a token by id')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'Remove expired and revoked tokens from auth/tokens.json')
            [CompletionResult]::new('publish', 'publish', [CompletionResultType]::ParameterValue, 'Publish the directory''s tokens to the store serve replicas share (again, after a publish failed, or to move the directory to another store)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'mcsctl;token;create' {
            [CompletionResult]::new('--ttl', '--ttl', [CompletionResultType]::ParameterName, 'Lifetime of the token (e.g. 24h, 30d); default: no expiry')
            [CompletionResult]::new('--description', '--description', [CompletionResultType]::ParameterName, 'Free-text description shown by `token list`')
            [CompletionResult]::new('--pool', '--pool', [CompletionResultType]::ParameterName, 'A pool whose config the token may fetch; repeatable (default: every pool of mcsctl.json). With --print-pointer, the pointer config printed is the first pool''s')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token''s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica''s ledger file')
            [CompletionResult]::new('--store-ca', '--store-ca', [CompletionResultType]::ParameterName, 'The CA that signed the etcd members'' serving certificates (PEM): the store is reached over TLS')
            [CompletionResult]::new('--store-cert', '--store-cert', [CompletionResultType]::ParameterName, 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)')
            [CompletionResult]::new('--store-key', '--store-key', [CompletionResultType]::ParameterName, 'The client certificate''s key (PEM)')
            [CompletionResult]::new('--store-prefix', '--store-prefix', [CompletionResultType]::ParameterName, 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('--print-pointer', '--print-pointer', [CompletionResultType]::ParameterName, 'Print a ready pointer config carrying the new token on stdout, as `kubeadm token create --print-join-command` prints a join command')
            [CompletionResult]::new('--new-pool', '--new-pool', [CompletionResultType]::ParameterName, 'The pool is new, not a typo: it may have no rendered config and not be in mcsctl.json''s pools (it is added there). Without it such a pool is refused, naming the known ones')
            [CompletionResult]::new('--store-insecure', '--store-insecure', [CompletionResultType]::ParameterName, 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcsctl;token;rotate' {
            [CompletionResult]::new('--grace', '--grace', [CompletionResultType]::ParameterName, 'How long the previous current token stays valid')
            [CompletionResult]::new('--ttl', '--ttl', [CompletionResultType]::ParameterName, 'Lifetime of the new token; default: no expiry')
            [CompletionResult]::new('--description', '--description', [CompletionResultType]::ParameterName, 'Free-text description of the new token')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token''s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica''s ledger file')
            [CompletionResult]::new('--store-ca', '--store-ca', [CompletionResultType]::ParameterName, 'The CA that signed the etcd members'' serving certificates (PEM): the store is reached over TLS')
            [CompletionResult]::new('--store-cert', '--store-cert', [CompletionResultType]::ParameterName, 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)')
            [CompletionResult]::new('--store-key', '--store-key', [CompletionResultType]::ParameterName, 'The client certificate''s key (PEM)')
            [CompletionResult]::new('--store-prefix', '--store-prefix', [CompletionResultType]::ParameterName, 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('--store-insecure', '--store-insecure', [CompletionResultType]::ParameterName, 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcsctl;token;list' {
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcsctl;token;revoke' {
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token''s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica''s ledger file')
            [CompletionResult]::new('--store-ca', '--store-ca', [CompletionResultType]::ParameterName, 'The CA that signed the etcd members'' serving certificates (PEM): the store is reached over TLS')
            [CompletionResult]::new('--store-cert', '--store-cert', [CompletionResultType]::ParameterName, 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)')
            [CompletionResult]::new('--store-key', '--store-key', [CompletionResultType]::ParameterName, 'The client certificate''s key (PEM)')
            [CompletionResult]::new('--store-prefix', '--store-prefix', [CompletionResultType]::ParameterName, 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('--store-insecure', '--store-insecure', [CompletionResultType]::ParameterName, 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcsctl;token;prune' {
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token''s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica''s ledger file')
            [CompletionResult]::new('--store-ca', '--store-ca', [CompletionResultType]::ParameterName, 'The CA that signed the etcd members'' serving certificates (PEM): the store is reached over TLS')
            [CompletionResult]::new('--store-cert', '--store-cert', [CompletionResultType]::ParameterName, 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)')
            [CompletionResult]::new('--store-key', '--store-key', [CompletionResultType]::ParameterName, 'The client certificate''s key (PEM)')
            [CompletionResult]::new('--store-prefix', '--store-prefix', [CompletionResultType]::ParameterName, 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('--store-insecure', '--store-insecure', [CompletionResultType]::ParameterName, 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcsctl;token;publish' {
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token''s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica''s ledger file')
            [CompletionResult]::new('--store-ca', '--store-ca', [CompletionResultType]::ParameterName, 'The CA that signed the etcd members'' serving certificates (PEM): the store is reached over TLS')
            [CompletionResult]::new('--store-cert', '--store-cert', [CompletionResultType]::ParameterName, 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)')
            [CompletionResult]::new('--store-key', '--store-key', [CompletionResultType]::ParameterName, 'The client certificate''s key (PEM)')
            [CompletionResult]::new('--store-prefix', '--store-prefix', [CompletionResultType]::ParameterName, 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('--store-insecure', '--store-insecure', [CompletionResultType]::ParameterName, 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcsctl;token;help' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a new token, the current one (carried by pointer configs) of each pool without one')
            [CompletionResult]::new('rotate', 'rotate', [CompletionResultType]::ParameterValue, 'Make a new current token, keep the old one valid for --grace, rewrite every pointer config')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List tokens (ids, states, expiry; never secrets)')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Revoke a token by id')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'Remove expired and revoked tokens from auth/tokens.json')
            [CompletionResult]::new('publish', 'publish', [CompletionResultType]::ParameterValue, 'Publish the directory''s tokens to the store serve replicas share (again, after a publish failed, or to move the directory to another store)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'mcsctl;token;help;create' {
            break
        }
        'mcsctl;token;help;rotate' {
            break
        }
        'mcsctl;token;help;list' {
            break
        }
        'mcsctl;token;help;revoke' {
            break
        }
        'mcsctl;token;help;prune' {
            break
        }
        'mcsctl;token;help;publish' {
            break
        }
        'mcsctl;token;help;help' {
            break
        }
        'mcsctl;machine' {
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Register a machine: its own pointer config (machines/NAME.ign) with a token bound to it, scoped to its pool, single-use by default')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the registered machines (tokens by id, never secrets)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Unregister a machine: its token is revoked, its pointer config removed')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Follow the machines'' timelines until each is done or stopped (a table on a terminal, a JSON line per change otherwise)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'mcsctl;machine;add' {
            [CompletionResult]::new('--pool', '--pool', [CompletionResultType]::ParameterName, 'The pool whose config it fetches')
            [CompletionResult]::new('--ip', '--ip', [CompletionResultType]::ParameterName, 'An address the machine is expected at (repeatable): a serving CSR may name it')
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Register every machine of a list: CSV lines `name,pool,addresses` (addresses separated by spaces or '';''), or YAML (a list of {name, pool, addresses}); - for stdin')
            [CompletionResult]::new('--ttl', '--ttl', [CompletionResultType]::ParameterName, 'Lifetime of its token (e.g. 24h); default: no expiry')
            [CompletionResult]::new('--uses', '--uses', [CompletionResultType]::ParameterName, 'How many full-config fetches its token allows (0: any number)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token''s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica''s ledger file')
            [CompletionResult]::new('--store-ca', '--store-ca', [CompletionResultType]::ParameterName, 'The CA that signed the etcd members'' serving certificates (PEM): the store is reached over TLS')
            [CompletionResult]::new('--store-cert', '--store-cert', [CompletionResultType]::ParameterName, 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)')
            [CompletionResult]::new('--store-key', '--store-key', [CompletionResultType]::ParameterName, 'The client certificate''s key (PEM)')
            [CompletionResult]::new('--store-prefix', '--store-prefix', [CompletionResultType]::ParameterName, 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace a machine of that name (its old token is revoked)')
            [CompletionResult]::new('--new-pool', '--new-pool', [CompletionResultType]::ParameterName, 'The pool is new, not a typo: it may have no rendered config and not be in mcsctl.json''s pools (it is added there). Without it such a pool is refused, naming the known ones')
            [CompletionResult]::new('--store-insecure', '--store-insecure', [CompletionResultType]::ParameterName, 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcsctl;machine;list' {
            [CompletionResult]::new('--ledger', '--ledger', [CompletionResultType]::ParameterName, 'Another replica''s ledger to merge (repeatable); every <dir>/auth/ledger/*.jsonl is read')
            [CompletionResult]::new('--csrs', '--csrs', [CompletionResultType]::ParameterName, 'The cluster''s CSRs (`oc get csr -o json`): each machine''s trail goes on to its CSRs')
            [CompletionResult]::new('--nodes', '--nodes', [CompletionResultType]::ParameterName, 'The cluster''s Nodes (`oc get nodes -o json`): the trail ends at a Ready node')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token''s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica''s ledger file')
            [CompletionResult]::new('--store-ca', '--store-ca', [CompletionResultType]::ParameterName, 'The CA that signed the etcd members'' serving certificates (PEM): the store is reached over TLS')
            [CompletionResult]::new('--store-cert', '--store-cert', [CompletionResultType]::ParameterName, 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)')
            [CompletionResult]::new('--store-key', '--store-key', [CompletionResultType]::ParameterName, 'The client certificate''s key (PEM)')
            [CompletionResult]::new('--store-prefix', '--store-prefix', [CompletionResultType]::ParameterName, 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('--store-insecure', '--store-insecure', [CompletionResultType]::ParameterName, 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcsctl;machine;remove' {
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token''s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica''s ledger file')
            [CompletionResult]::new('--store-ca', '--store-ca', [CompletionResultType]::ParameterName, 'The CA that signed the etcd members'' serving certificates (PEM): the store is reached over TLS')
            [CompletionResult]::new('--store-cert', '--store-cert', [CompletionResultType]::ParameterName, 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)')
            [CompletionResult]::new('--store-key', '--store-key', [CompletionResultType]::ParameterName, 'The client certificate''s key (PEM)')
            [CompletionResult]::new('--store-prefix', '--store-prefix', [CompletionResultType]::ParameterName, 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('--store-insecure', '--store-insecure', [CompletionResultType]::ParameterName, 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcsctl;machine;watch' {
            [CompletionResult]::new('--ledger', '--ledger', [CompletionResultType]::ParameterName, 'Another replica''s ledger to merge (repeatable); every <dir>/auth/ledger/*.jsonl is read')
            [CompletionResult]::new('--csrs', '--csrs', [CompletionResultType]::ParameterName, 'The cluster''s CSRs (`oc get csr -o json`): each machine''s trail goes on to its CSRs')
            [CompletionResult]::new('--nodes', '--nodes', [CompletionResultType]::ParameterName, 'The cluster''s Nodes (`oc get nodes -o json`): the trail ends at a Ready node')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token''s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica''s ledger file')
            [CompletionResult]::new('--store-ca', '--store-ca', [CompletionResultType]::ParameterName, 'The CA that signed the etcd members'' serving certificates (PEM): the store is reached over TLS')
            [CompletionResult]::new('--store-cert', '--store-cert', [CompletionResultType]::ParameterName, 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)')
            [CompletionResult]::new('--store-key', '--store-key', [CompletionResultType]::ParameterName, 'The client certificate''s key (PEM)')
            [CompletionResult]::new('--store-prefix', '--store-prefix', [CompletionResultType]::ParameterName, 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'How long to watch before giving up (exit 1)')
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'How often to look again')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('--store-insecure', '--store-insecure', [CompletionResultType]::ParameterName, 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcsctl;machine;help' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Register a machine: its own pointer config (machines/NAME.ign) with a token bound to it, scoped to its pool, single-use by default')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the registered machines (tokens by id, never secrets)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Unregister a machine: its token is revoked, its pointer config removed')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Follow the machines'' timelines until each is done or stopped (a table on a terminal, a JSON line per change otherwise)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'mcsctl;machine;help;add' {
            break
        }
        'mcsctl;machine;help;list' {
            break
        }
        'mcsctl;machine;help;remove' {
            break
        }
        'mcsctl;machine;help;watch' {
            break
        }
        'mcsctl;machine;help;help' {
            break
        }
        'mcsctl;inspect' {
            [CompletionResult]::new('--remote', '--remote', [CompletionResultType]::ParameterName, 'Connect to a live TLS endpoint, show the chain it presents and check each named pointer config against it')
            [CompletionResult]::new('--server-name', '--server-name', [CompletionResultType]::ParameterName, 'Server name to send (SNI) with --remote (default: the host of HOST:PORT)')
            [CompletionResult]::new('--ca', '--ca', [CompletionResultType]::ParameterName, 'CA bundle to verify --remote against (default: the asset CA bundle when present)')
            [CompletionResult]::new('--warn-within', '--warn-within', [CompletionResultType]::ParameterName, 'Warn (exit 3) about certificates expiring within this duration')
            [CompletionResult]::new('--ledger', '--ledger', [CompletionResultType]::ParameterName, 'Another replica''s ledger to read machine tokens'' fetches from (repeatable); every <dir>/auth/ledger/*.jsonl is read')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token''s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica''s ledger file')
            [CompletionResult]::new('--store-ca', '--store-ca', [CompletionResultType]::ParameterName, 'The CA that signed the etcd members'' serving certificates (PEM): the store is reached over TLS')
            [CompletionResult]::new('--store-cert', '--store-cert', [CompletionResultType]::ParameterName, 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)')
            [CompletionResult]::new('--store-key', '--store-key', [CompletionResultType]::ParameterName, 'The client certificate''s key (PEM)')
            [CompletionResult]::new('--store-prefix', '--store-prefix', [CompletionResultType]::ParameterName, 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('--store-insecure', '--store-insecure', [CompletionResultType]::ParameterName, 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcsctl;render' {
            [CompletionResult]::new('--machine-configs', '--machine-configs', [CompletionResultType]::ParameterName, 'MachineConfigs: a YAML or JSON file (multi-document or `kind: List`), a directory of them, or -')
            [CompletionResult]::new('--controller-config', '--controller-config', [CompletionResultType]::ParameterName, 'The cluster''s ControllerConfig (`oc get controllerconfig machine-config-controller -o yaml`), whose OS and extensions images controller-generated MachineConfigs take, as the MCO merges them (one among the --machine-configs inputs is taken too)')
            [CompletionResult]::new('--from-cluster', '--from-cluster', [CompletionResultType]::ParameterName, 'What the in-cluster MCS would serve, from a snapshot of the cluster (`oc get -o yaml` of the MachineConfigPools, MachineConfigs, ControllerConfig, the node-bootstrapper-token Secret and the kubeconfig-data ConfigMap): a file, a YAML stream, a directory, or -')
            [CompletionResult]::new('--for', '--for', [CompletionResultType]::ParameterName, 'What the configs are for (default: the flavour recorded in mcsctl.json, else openshift); recorded')
            [CompletionResult]::new('--bootstrap-kubeconfig', '--bootstrap-kubeconfig', [CompletionResultType]::ParameterName, 'The kubelet''s bootstrap kubeconfig (kept as auth/bootstrap-kubeconfig, 0600, for later renders)')
            [CompletionResult]::new('--spec-version', '--spec-version', [CompletionResultType]::ParameterName, 'Ignition spec of the coreos flavour''s output, 3.0.0 to 3.5.0 (default: the newest input version, at least 3.2.0). The openshift flavour keeps the MCO''s internal 3.5.0 and serve answers each client at its own spec, as the MCS does')
            [CompletionResult]::new('--allow-sensitive', '--allow-sensitive', [CompletionResultType]::ParameterName, 'A file path (or systemd unit name) allowed to hold a secret in the pre-approval set; repeatable')
            [CompletionResult]::new('--current', '--current', [CompletionResultType]::ParameterName, 'The cluster''s current rendered MachineConfig of the pool (`oc get mc rendered-<pool>-<hash> -o yaml`): the new merge is checked against it by the MCO''s reconcile rules, as on a running cluster. Without it, against the directory''s rendered/<pool>.ign; a pool with neither is a first render, not checked')
            [CompletionResult]::new('--allow-irreconcilable', '--allow-irreconcilable', [CompletionResultType]::ParameterName, 'Storage sections a day-2 render may change although running nodes never apply them in place (the MCO''s IrreconcilableValidationOverrides.storage): disks, filesystems, raid; comma-separated or repeated. Existing nodes keep their config; new machines get the new one')
            [CompletionResult]::new('--from-mcs', '--from-mcs', [CompletionResultType]::ParameterName, 'Store what a live config server serves for --pool (the in-cluster MCS, or another mcsctl serve)')
            [CompletionResult]::new('--pool', '--pool', [CompletionResultType]::ParameterName, 'The pool to fetch with --from-mcs (appended to the URL as /config/POOL when it has no path); with --from-cluster, the one pool to take (default: every pool)')
            [CompletionResult]::new('--ca', '--ca', [CompletionResultType]::ParameterName, 'CA bundle the server''s certificate must chain to: PEM, or a pointer config that trusts it (default: tls/mcs-ca-bundle.crt)')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for --from-mcs (or from the environment, so it stays out of `ps`)')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Refuse what the MCO would drop (unknown spec fields, unknown Ignition keys) instead of dropping it with a warning')
            [CompletionResult]::new('--no-bootstrap-kubeconfig', '--no-bootstrap-kubeconfig', [CompletionResultType]::ParameterName, 'OpenShift configs without a bootstrap kubeconfig are meant (nodes booted from them never join): without it, render refuses them')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace a different auth/bootstrap-kubeconfig')
            [CompletionResult]::new('--report', '--report', [CompletionResultType]::ParameterName, 'Add the first-boot report to the full config of each pool rendered: once up after Ignition, a machine posts one report to serve (`machine list` shows it). Remembered in mcsctl.json for later renders; the pre-approval set never carries it')
            [CompletionResult]::new('--no-report', '--no-report', [CompletionResultType]::ParameterName, 'Stop adding the first-boot report to the pools rendered (remembered)')
            [CompletionResult]::new('--replace', '--replace', [CompletionResultType]::ParameterName, 'Replace a pool''s config even when MachineConfigs, files or units it serves now would disappear (without it render refuses and names them)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcsctl;serve' {
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'How the access log (stdout) and events (stderr) are written: readable lines (text), JSON lines (json), or auto: text on a terminal, JSON otherwise, for each stream')
            [CompletionResult]::new('--metrics-listen', '--metrics-listen', [CompletionResultType]::ParameterName, 'Answer Prometheus scrapes at http://ADDR/metrics (plain HTTP; 127.0.0.1:9623 when given without ADDR): requests by pool, status and auth outcome, failed handshakes, machine fetches, token and certificate expiry, reloads, config sizes, connections')
            [CompletionResult]::new('--ledger', '--ledger', [CompletionResultType]::ParameterName, 'Where this replica records each fetch of a machine token (default <dir>/auth/ledger/<hostname>.jsonl), locked while serve writes it; every ledger under <dir>/auth/ledger counts, read on at each reload poll')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token''s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica''s ledger file')
            [CompletionResult]::new('--store-ca', '--store-ca', [CompletionResultType]::ParameterName, 'The CA that signed the etcd members'' serving certificates (PEM): the store is reached over TLS')
            [CompletionResult]::new('--store-cert', '--store-cert', [CompletionResultType]::ParameterName, 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)')
            [CompletionResult]::new('--store-key', '--store-key', [CompletionResultType]::ParameterName, 'The client certificate''s key (PEM)')
            [CompletionResult]::new('--store-prefix', '--store-prefix', [CompletionResultType]::ParameterName, 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)')
            [CompletionResult]::new('--store-grace', '--store-grace', [CompletionResultType]::ParameterName, 'With --store: how long pool tokens keep being served from the last state the store published while it does not answer (machine tokens wait for it at once: 503); then they get 503 too, until it answers')
            [CompletionResult]::new('--store-lease', '--store-lease', [CompletionResultType]::ParameterName, 'With --store: the lease this replica holds its fetches under, renewed every third of it. A replica that stops renewing it (killed, paused, cut off from the members) is taken for gone once it ends, by the store''s clock: its fetches that had not begun sending their end are given back. Shorter frees a dead replica''s machines sooner; at least 2s')
            [CompletionResult]::new('--max-partial-fetches', '--max-partial-fetches', [CompletionResultType]::ParameterName, 'How many fetches of a machine token with limited uses may be cut off before their end (a network that drops, a client that stops reading): each gives the use back and the machine may fetch again; past this many, the token is refused (401) until `mcsctl machine add NAME --force` gives it a new one')
            [CompletionResult]::new('--listen', '--listen', [CompletionResultType]::ParameterName, 'HTTPS listen address')
            [CompletionResult]::new('--insecure-listen', '--insecure-listen', [CompletionResultType]::ParameterName, 'Also listen for plain HTTP (the MCS historically used port 22624). Off by default')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'Auth mode (default: serveAuth of mcsctl.json, else token; never chosen by how many tokens are live)')
            [CompletionResult]::new('--header-timeout', '--header-timeout', [CompletionResultType]::ParameterName, 'Time allowed to send a request''s headers; also the idle keep-alive timeout')
            [CompletionResult]::new('--handshake-timeout', '--handshake-timeout', [CompletionResultType]::ParameterName, 'Time allowed for a TLS handshake (and a PROXY protocol header)')
            [CompletionResult]::new('--write-timeout', '--write-timeout', [CompletionResultType]::ParameterName, 'How long a response may stay unsent because the client does not read; then the connection is cut')
            [CompletionResult]::new('--min-send-rate', '--min-send-rate', [CompletionResultType]::ParameterName, 'Average bytes per second a response must be read at once it has taken longer than --write-timeout; a slower reader is cut off (a `slow-client` event)')
            [CompletionResult]::new('--connection-deadline', '--connection-deadline', [CompletionResultType]::ParameterName, 'How long one connection may stay open; then it is closed after the request in flight (which gets --write-timeout more to finish)')
            [CompletionResult]::new('--proxy-protocol-from', '--proxy-protocol-from', [CompletionResultType]::ParameterName, 'Load balancer (address or CIDR) whose connections start with a PROXY protocol v1/v2 header; repeatable (default: proxyProtocolFrom of mcsctl.json)')
            [CompletionResult]::new('--max-connections', '--max-connections', [CompletionResultType]::ParameterName, 'Most connections open at once; past it, an idle connection of the client holding the most is closed to let a newcomer in (none idle: the newcomer is closed)')
            [CompletionResult]::new('--max-connections-per-client', '--max-connections-per-client', [CompletionResultType]::ParameterName, 'Most connections one client (address; IPv6 /64; behind a PROXY-protocol balancer, the client it names) may hold (default: an eighth of --max-connections)')
            [CompletionResult]::new('--max-header-bytes', '--max-header-bytes', [CompletionResultType]::ParameterName, 'Largest request head in bytes; larger requests get 431')
            [CompletionResult]::new('--reload-interval', '--reload-interval', [CompletionResultType]::ParameterName, 'How often to look for changed certificates, tokens and rendered configs (SIGHUP reloads at once)')
            [CompletionResult]::new('--drain-timeout', '--drain-timeout', [CompletionResultType]::ParameterName, 'How long SIGTERM waits for in-flight requests before exiting')
            [CompletionResult]::new('--max-failures', '--max-failures', [CompletionResultType]::ParameterName, 'Unknown tokens per client (address; IPv6 /64) per minute before it gets 429; valid tokens are always served')
            [CompletionResult]::new('--block-for', '--block-for', [CompletionResultType]::ParameterName, 'How long a client that exceeded --max-failures gets 429')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('--store-insecure', '--store-insecure', [CompletionResultType]::ParameterName, 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused')
            [CompletionResult]::new('--reload', '--reload', [CompletionResultType]::ParameterName, 'Do not serve: send SIGHUP to the serve(s) of --dir, found by the run/serve-PID.pid files each writes there, and exit (1 when none is running)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcsctl;doctor' {
            [CompletionResult]::new('--resolve', '--resolve', [CompletionResultType]::ParameterName, 'Use ADDR for HOST instead of DNS, like curl: HOST:ADDR or HOST:PORT:ADDR; repeatable')
            [CompletionResult]::new('--ignition-spec', '--ignition-spec', [CompletionResultType]::ParameterName, 'The newest Ignition spec the simulated client reads (Ignition 2.14 reads 3.3.0, 2.20 reads 3.5.0); a newer pointer config fails at step parse')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Time allowed for each network step')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('--fetch', '--fetch', [CompletionResultType]::ParameterName, 'Fetch the config even when the pointer''s token has limited uses (a machine''s single-use token): that spends one, and the machine then gets 401. Without it such a token is checked with HEAD (TLS, auth, its state), which spends nothing')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcsctl;csr' {
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('review', 'review', [CompletionResultType]::ParameterValue, 'Decide, for each pending kubelet CSR, approve / leave pending / ignore, and why')
            [CompletionResult]::new('sign', 'sign', [CompletionResultType]::ParameterValue, 'Issue a kubelet client or serving certificate for a CSR from a CA')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'mcsctl;csr;review' {
            [CompletionResult]::new('--csrs', '--csrs', [CompletionResultType]::ParameterName, 'CSRs: `oc get csr -o json` output (a List or one object, JSON or YAML), or - for stdin')
            [CompletionResult]::new('--machines', '--machines', [CompletionResultType]::ParameterName, 'Machines: `oc get machines -A -o json` (Machine API clusters)')
            [CompletionResult]::new('--nodes', '--nodes', [CompletionResultType]::ParameterName, 'Nodes: `oc get nodes -o json`')
            [CompletionResult]::new('--inventory', '--inventory', [CompletionResultType]::ParameterName, 'UPI inventory of expected hosts (format in docs/node-admission.md), instead of or besides --machines')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The time to decide at (RFC 3339); default: now. Makes decisions reproducible')
            [CompletionResult]::new('--kubelet-ca', '--kubelet-ca', [CompletionResultType]::ParameterName, 'Kubelet CA bundle (ConfigMap openshift-config-managed/csr-controller-ca, ca-bundle.crt); enables renewals')
            [CompletionResult]::new('--serving-certs', '--serving-certs', [CompletionResultType]::ParameterName, 'Directory of the serving certificates nodes present now, one PEM per node: <node>.pem or <node>.crt')
            [CompletionResult]::new('--fetch-timeout', '--fetch-timeout', [CompletionResultType]::ParameterName, 'Time allowed for each kubelet connection with --fetch-serving-certs')
            [CompletionResult]::new('--network-type', '--network-type', [CompletionResultType]::ParameterName, 'The cluster''s network type (networks.config.openshift.io/cluster status.networkType)')
            [CompletionResult]::new('--host-subnets', '--host-subnets', [CompletionResultType]::ParameterName, 'OpenShiftSDN HostSubnets (`oc get hostsubnets -o json`) for the egress-IP fallback')
            [CompletionResult]::new('--approver-config', '--approver-config', [CompletionResultType]::ParameterName, 'cluster-machine-approver config file (YAML); honours nodeClientCert.disabled')
            [CompletionResult]::new('--window', '--window', [CompletionResultType]::ParameterName, 'With evidence: how long after a machine''s first fetch its client CSR may come')
            [CompletionResult]::new('--clock-skew', '--clock-skew', [CompletionResultType]::ParameterName, 'With evidence: how far serve''s clock (the ledger''s times) and the API server''s (the CSRs'') may disagree; a client CSR is judged against the window widened by this much on either side')
            [CompletionResult]::new('--ledger', '--ledger', [CompletionResultType]::ParameterName, 'With evidence: another replica''s ledger to merge (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token''s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica''s ledger file')
            [CompletionResult]::new('--store-ca', '--store-ca', [CompletionResultType]::ParameterName, 'The CA that signed the etcd members'' serving certificates (PEM): the store is reached over TLS')
            [CompletionResult]::new('--store-cert', '--store-cert', [CompletionResultType]::ParameterName, 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)')
            [CompletionResult]::new('--store-key', '--store-key', [CompletionResultType]::ParameterName, 'The client certificate''s key (PEM)')
            [CompletionResult]::new('--store-prefix', '--store-prefix', [CompletionResultType]::ParameterName, 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('--fetch-serving-certs', '--fetch-serving-certs', [CompletionResultType]::ParameterName, 'Fetch each node''s current serving certificate from its kubelet (first InternalIP, kubelet port)')
            [CompletionResult]::new('--approve-names', '--approve-names', [CompletionResultType]::ParameterName, 'Print only the names of CSRs to approve, one a line (for `xargs oc adm certificate approve`)')
            [CompletionResult]::new('--evidence', '--evidence', [CompletionResultType]::ParameterName, 'Decide from evidence: a client CSR only for a machine registered with `machine add` whose token fetched its config (the ledger) within --window before it; a serving CSR only for the fetch and registered addresses. The default when the asset directory has registered machines and neither --machines nor --inventory is given')
            [CompletionResult]::new('--store-insecure', '--store-insecure', [CompletionResultType]::ParameterName, 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcsctl;csr;sign' {
            [CompletionResult]::new('--csr', '--csr', [CompletionResultType]::ParameterName, 'The request: a PEM CERTIFICATE REQUEST, or a CertificateSigningRequest object (JSON or YAML)')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'The kubelet signer''s CA certificate (the cluster''s csr-signer). Never the MCS CA: a signer that pointer configs or the MCS bundle trust is refused')
            [CompletionResult]::new('--ca-key', '--ca-key', [CompletionResultType]::ParameterName, 'The kubelet signer''s private key')
            [CompletionResult]::new('--address', '--address', [CompletionResultType]::ParameterName, 'An address of the node a serving certificate may name besides the node name (its InternalIP, ExternalIP or a hostname, as `oc get node NAME -o wide` shows); repeatable')
            [CompletionResult]::new('--validity', '--validity', [CompletionResultType]::ParameterName, 'Validity of the certificate; never beyond the CA''s')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Where to write the certificate PEM (default: stdout)')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace an existing output file')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcsctl;csr;help' {
            [CompletionResult]::new('review', 'review', [CompletionResultType]::ParameterValue, 'Decide, for each pending kubelet CSR, approve / leave pending / ignore, and why')
            [CompletionResult]::new('sign', 'sign', [CompletionResultType]::ParameterValue, 'Issue a kubelet client or serving certificate for a CSR from a CA')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'mcsctl;csr;help;review' {
            break
        }
        'mcsctl;csr;help;sign' {
            break
        }
        'mcsctl;csr;help;help' {
            break
        }
        'mcsctl;manifests' {
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Directory to write into (default: <dir>/manifests)')
            [CompletionResult]::new('--image', '--image', [CompletionResultType]::ParameterName, 'Container image with mcsctl, for --serve-deployment')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of the serve Deployment, Service and their Secrets')
            [CompletionResult]::new('--service-type', '--service-type', [CompletionResultType]::ParameterName, 'How booting machines reach the serve Service (with --host-network: the nodes'' port 22623 instead)')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'Auth mode of the deployed serve')
            [CompletionResult]::new('--replicas', '--replicas', [CompletionResultType]::ParameterName, 'Replicas of the serve Deployment. With machine tokens in the asset directory and no --store it must be 1: each replica would keep a ledger of its own, and a single-use token spent on one would fetch again on another')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token''s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica''s ledger file')
            [CompletionResult]::new('--store-ca', '--store-ca', [CompletionResultType]::ParameterName, 'The CA that signed the etcd members'' serving certificates (PEM): the store is reached over TLS')
            [CompletionResult]::new('--store-cert', '--store-cert', [CompletionResultType]::ParameterName, 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)')
            [CompletionResult]::new('--store-key', '--store-key', [CompletionResultType]::ParameterName, 'The client certificate''s key (PEM)')
            [CompletionResult]::new('--store-prefix', '--store-prefix', [CompletionResultType]::ParameterName, 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('--serve-deployment', '--serve-deployment', [CompletionResultType]::ParameterName, 'Also write what runs `mcsctl serve` from Secrets: a Deployment (--replicas, 2) and a Service, or with --host-network a DaemonSet on the control plane nodes. A single replica records machine-token fetches on a PersistentVolumeClaim')
            [CompletionResult]::new('--host-network', '--host-network', [CompletionResultType]::ParameterName, 'Run serve on the control plane nodes'' host network, port 22623 (where a UPI load balancer already points, as the real MCS runs), tolerating their taints')
            [CompletionResult]::new('--store-insecure', '--store-insecure', [CompletionResultType]::ParameterName, 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused')
            [CompletionResult]::new('--include-ca-key', '--include-ca-key', [CompletionResultType]::ParameterName, 'Also write the MCS CA''s private key (Secret openshift-machine-config-operator/ machine-config-server-ca), for a cluster whose MCO rotates the CA itself (4.19+). Without it the key stays offline in the asset directory')
            [CompletionResult]::new('--include-root-ca', '--include-root-ca', [CompletionResultType]::ParameterName, 'Also write ConfigMap kube-system/root-ca with the MCS CA: only for a cluster whose root-ca was made by this asset directory (openshift-install writes it at install; it serves more than the MCS)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace existing files')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcsctl;ledger' {
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Import the ledger files (<dir>/auth/ledger/*.jsonl and --ledger) into the store: every fetch record, and each single-use token''s fetches counted there, so a token spent before the move stays spent on every replica after it. Run it again at will: a record is imported once')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'mcsctl;ledger;import' {
            [CompletionResult]::new('--ledger', '--ledger', [CompletionResultType]::ParameterName, 'Another replica''s ledger to import too (repeatable)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token''s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica''s ledger file')
            [CompletionResult]::new('--store-ca', '--store-ca', [CompletionResultType]::ParameterName, 'The CA that signed the etcd members'' serving certificates (PEM): the store is reached over TLS')
            [CompletionResult]::new('--store-cert', '--store-cert', [CompletionResultType]::ParameterName, 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)')
            [CompletionResult]::new('--store-key', '--store-key', [CompletionResultType]::ParameterName, 'The client certificate''s key (PEM)')
            [CompletionResult]::new('--store-prefix', '--store-prefix', [CompletionResultType]::ParameterName, 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('--store-insecure', '--store-insecure', [CompletionResultType]::ParameterName, 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcsctl;ledger;help' {
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Import the ledger files (<dir>/auth/ledger/*.jsonl and --ledger) into the store: every fetch record, and each single-use token''s fetches counted there, so a token spent before the move stays spent on every replica after it. Run it again at will: a record is imported once')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'mcsctl;ledger;help;import' {
            break
        }
        'mcsctl;ledger;help;help' {
            break
        }
        'mcsctl;completions' {
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcsctl;man' {
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Directory to write the pages into (created when missing)')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcsctl;version' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only data, warnings and errors: no progress, no report of what was written, no next steps')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also print, on stderr, each file read and written and each decision taken')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcsctl;help' {
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Create the whole asset directory in one step: CA, serving certificate, token, pointer configs')
            [CompletionResult]::new('ca', 'ca', [CompletionResultType]::ParameterValue, 'Create, import or rotate the MCS CA')
            [CompletionResult]::new('cert', 'cert', [CompletionResultType]::ParameterValue, 'Issue or renew the MCS serving certificate')
            [CompletionResult]::new('pointer', 'pointer', [CompletionResultType]::ParameterValue, 'Write an Ignition pointer config for a pool')
            [CompletionResult]::new('token', 'token', [CompletionResultType]::ParameterValue, 'Manage bearer provisioning tokens')
            [CompletionResult]::new('machine', 'machine', [CompletionResultType]::ParameterValue, 'Register the machines a UPI cluster expects, each with its own single-use pointer config')
            [CompletionResult]::new('inspect', 'inspect', [CompletionResultType]::ParameterValue, 'Check expiry and consistency of certificates, pointer configs, the asset directory or a live endpoint')
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, 'Render MachineConfigs into rendered/<pool>.ign and the pre-approval subset')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve rendered configs over TLS to booting machines (the Machine Config Server)')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Do what Ignition does with a pointer config, step by step, and say which step fails')
            [CompletionResult]::new('csr', 'csr', [CompletionResultType]::ParameterValue, 'Review kubelet CSRs by the cluster-machine-approver''s rules, or sign one')
            [CompletionResult]::new('manifests', 'manifests', [CompletionResultType]::ParameterValue, 'Write Kubernetes objects for the cluster, and optionally a Deployment running `mcsctl serve`')
            [CompletionResult]::new('ledger', 'ledger', [CompletionResultType]::ParameterValue, 'Move the provisioning ledger files into the store serve replicas share')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a static shell completion script to stdout (commands and flags). For completions that also offer the asset directory''s pools, token ids and machines, have the shell ask mcsctl: `source <(COMPLETE=bash mcsctl)` in ~/.bashrc (zsh alike; fish: `COMPLETE=fish mcsctl | source`)')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Write one man page per command into a directory')
            [CompletionResult]::new('version', 'version', [CompletionResultType]::ParameterValue, 'Print mcsctl''s version, the commit and target it was built for, and the TLS and Ignition spec versions it speaks')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'mcsctl;help;init' {
            break
        }
        'mcsctl;help;ca' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create the MCS CA; with --force over an existing one, rotate to a new CA and promote it at once')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Adopt an existing CA (openshift-install''s tls/root-ca.{crt,key}), or trust a cluster''s CA bundle')
            [CompletionResult]::new('rotate', 'rotate', [CompletionResultType]::ParameterValue, 'Phase 1 of 3: introduce a new CA beside the active one; pointer configs trust both')
            [CompletionResult]::new('promote', 'promote', [CompletionResultType]::ParameterValue, 'Phase 2 of 3: re-issue the serving certificate from the new CA, which becomes the active one')
            [CompletionResult]::new('retire', 'retire', [CompletionResultType]::ParameterValue, 'Phase 3 of 3: drop the previous CA from the bundle and every pointer config')
            break
        }
        'mcsctl;help;ca;create' {
            break
        }
        'mcsctl;help;ca;import' {
            break
        }
        'mcsctl;help;ca;rotate' {
            break
        }
        'mcsctl;help;ca;promote' {
            break
        }
        'mcsctl;help;ca;retire' {
            break
        }
        'mcsctl;help;cert' {
            [CompletionResult]::new('issue', 'issue', [CompletionResultType]::ParameterValue, 'Issue the serving certificate (tls/mcs.crt, tls/mcs.key), signed by the CA')
            [CompletionResult]::new('renew', 'renew', [CompletionResultType]::ParameterValue, 'Renew the serving certificate: same CA, same SANs, new key')
            break
        }
        'mcsctl;help;cert;issue' {
            break
        }
        'mcsctl;help;cert;renew' {
            break
        }
        'mcsctl;help;pointer' {
            break
        }
        'mcsctl;help;token' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a new token, the current one (carried by pointer configs) of each pool without one')
            [CompletionResult]::new('rotate', 'rotate', [CompletionResultType]::ParameterValue, 'Make a new current token, keep the old one valid for --grace, rewrite every pointer config')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List tokens (ids, states, expiry; never secrets)')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Revoke a token by id')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'Remove expired and revoked tokens from auth/tokens.json')
            [CompletionResult]::new('publish', 'publish', [CompletionResultType]::ParameterValue, 'Publish the directory''s tokens to the store serve replicas share (again, after a publish failed, or to move the directory to another store)')
            break
        }
        'mcsctl;help;token;create' {
            break
        }
        'mcsctl;help;token;rotate' {
            break
        }
        'mcsctl;help;token;list' {
            break
        }
        'mcsctl;help;token;revoke' {
            break
        }
        'mcsctl;help;token;prune' {
            break
        }
        'mcsctl;help;token;publish' {
            break
        }
        'mcsctl;help;machine' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Register a machine: its own pointer config (machines/NAME.ign) with a token bound to it, scoped to its pool, single-use by default')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the registered machines (tokens by id, never secrets)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Unregister a machine: its token is revoked, its pointer config removed')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Follow the machines'' timelines until each is done or stopped (a table on a terminal, a JSON line per change otherwise)')
            break
        }
        'mcsctl;help;machine;add' {
            break
        }
        'mcsctl;help;machine;list' {
            break
        }
        'mcsctl;help;machine;remove' {
            break
        }
        'mcsctl;help;machine;watch' {
            break
        }
        'mcsctl;help;inspect' {
            break
        }
        'mcsctl;help;render' {
            break
        }
        'mcsctl;help;serve' {
            break
        }
        'mcsctl;help;doctor' {
            break
        }
        'mcsctl;help;csr' {
            [CompletionResult]::new('review', 'review', [CompletionResultType]::ParameterValue, 'Decide, for each pending kubelet CSR, approve / leave pending / ignore, and why')
            [CompletionResult]::new('sign', 'sign', [CompletionResultType]::ParameterValue, 'Issue a kubelet client or serving certificate for a CSR from a CA')
            break
        }
        'mcsctl;help;csr;review' {
            break
        }
        'mcsctl;help;csr;sign' {
            break
        }
        'mcsctl;help;manifests' {
            break
        }
        'mcsctl;help;ledger' {
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Import the ledger files (<dir>/auth/ledger/*.jsonl and --ledger) into the store: every fetch record, and each single-use token''s fetches counted there, so a token spent before the move stays spent on every replica after it. Run it again at will: a record is imported once')
            break
        }
        'mcsctl;help;ledger;import' {
            break
        }
        'mcsctl;help;completions' {
            break
        }
        'mcsctl;help;man' {
            break
        }
        'mcsctl;help;version' {
            break
        }
        'mcsctl;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
