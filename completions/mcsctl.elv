
use builtin;
use str;

set edit:completion:arg-completer[mcsctl] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'mcsctl'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'mcsctl'= {
            cand --dir 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets); also accepted after the command'
            cand -o 'Output format of the data written to stdout (default text); also accepted after the command. `-o` as in oc and kubectl'
            cand --format 'Output format of the data written to stdout (default text); also accepted after the command. `-o` as in oc and kubectl'
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand init 'Create the whole asset directory in one step: CA, serving certificate, token, pointer configs'
            cand ca 'Create, import or rotate the MCS CA'
            cand cert 'Issue or renew the MCS serving certificate'
            cand pointer 'Write an Ignition pointer config for a pool'
            cand token 'Manage bearer provisioning tokens'
            cand machine 'Register the machines a UPI cluster expects, each with its own single-use pointer config'
            cand inspect 'Check expiry and consistency of certificates, pointer configs, the asset directory or a live endpoint'
            cand render 'Render MachineConfigs into rendered/<pool>.ign and the pre-approval subset'
            cand serve 'Serve rendered configs over TLS to booting machines (the Machine Config Server)'
            cand doctor 'Do what Ignition does with a pointer config, step by step, and say which step fails'
            cand csr 'Review kubelet CSRs by the cluster-machine-approver''s rules, or sign one'
            cand manifests 'Write Kubernetes objects for the cluster, and optionally a Deployment running `mcsctl serve`'
            cand ledger 'Move the provisioning ledger files into the store serve replicas share'
            cand completions 'Print a static shell completion script to stdout (commands and flags). For completions that also offer the asset directory''s pools, token ids and machines, have the shell ask mcsctl: `source <(COMPLETE=bash mcsctl)` in ~/.bashrc (zsh alike; fish: `COMPLETE=fish mcsctl | source`)'
            cand man 'Write one man page per command into a directory'
            cand version 'Print mcsctl''s version, the commit and target it was built for, and the TLS and Ignition spec versions it speaks'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'mcsctl;init'= {
            cand --cluster-name 'Cluster name (a DNS label), as in the install-config'
            cand --base-domain 'Base domain (a DNS name); the MCS is reached at api-int.<cluster>.<base-domain>'
            cand --url 'Where machines reach the MCS, if not at api-int (a load balancer): HOST, HOST:PORT or https://HOST:PORT; its host becomes a SAN'
            cand --san 'Extra subject alternative name of the serving certificate (DNS name or IP); repeatable'
            cand --pool 'Machine pool to write a pointer config for; repeatable (default: worker and master)'
            cand --ca-cert 'Adopt this CA instead of creating one (openshift-install''s tls/root-ca.crt; PEM or DER)'
            cand --ca-key 'The adopted CA''s private key (PEM or DER; PKCS#1, PKCS#8 or SEC1)'
            cand --key-algorithm 'Key algorithm of the CA and serving keys (default ecdsa-p256)'
            cand --ca-validity 'Validity of the CA (e.g. 10y, 365d)'
            cand --cert-validity 'Validity of the serving certificate; never beyond the CA''s'
            cand --token-transport 'How pointer configs carry the token: header or query'
            cand --spec-version 'Ignition spec version of the pointer configs (3.0.0 to 3.4.0)'
            cand --for 'What `render` renders for: OpenShift nodes (the MCS payload) or plain CoreOS'
            cand --dir 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)'
            cand -o 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --format 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand --no-token 'Do not create a provisioning token; pointer configs carry no credential'
            cand --force 'Replace an existing, non-empty asset directory: the keys, tokens and pointer configs it replaces are kept under backup/<time>/ (and listed), pointer configs of pools no longer listed are removed; tls/retired/ is left as it is'
            cand -y 'With --force: replace the CA key without asking (needed without a terminal; every pointer config made from the old CA stops working)'
            cand --yes 'With --force: replace the CA key without asking (needed without a terminal; every pointer config made from the old CA stops working)'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcsctl;ca'= {
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand create 'Create the MCS CA; with --force over an existing one, rotate to a new CA and promote it at once'
            cand import 'Adopt an existing CA (openshift-install''s tls/root-ca.{crt,key}), or trust a cluster''s CA bundle'
            cand rotate 'Phase 1 of 3: introduce a new CA beside the active one; pointer configs trust both'
            cand promote 'Phase 2 of 3: re-issue the serving certificate from the new CA, which becomes the active one'
            cand retire 'Phase 3 of 3: drop the previous CA from the bundle and every pointer config'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'mcsctl;ca;create'= {
            cand --key-algorithm 'Key algorithm of the CA key'
            cand --validity 'Validity of the CA'
            cand --dir 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)'
            cand -o 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --format 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand --force 'Replace an existing CA: retire any previous CA, rotate to a new one and promote it in one step. Refused while pointer configs trust the CA (their copies would stop working) unless --yes; `ca rotate` keeps them working. No key is lost: the replaced CA''s key is kept as tls/mcs-ca-previous.key, a previous one''s under tls/retired/'
            cand -y 'With --force: replace the CA even though copies of the pointer configs stop working'
            cand --yes 'With --force: replace the CA even though copies of the pointer configs stop working'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcsctl;ca;import'= {
            cand --cert 'CA certificate, PEM or DER'
            cand --key 'CA private key, PEM or DER (PKCS#1, PKCS#8 or SEC1)'
            cand --bundle 'A cluster''s CA bundle to trust exactly: the machine-config-server-ca or root-ca ConfigMap (oc get -o json|yaml), or PEM; with the Secret of the same name (or --key), its signing key. The directory''s own bundle again changes nothing; a bundle without the CA whose key is here needs --force, and that key is kept under tls/retired/'
            cand --dir 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)'
            cand -o 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --format 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand --force 'Replace an existing CA (rotate to the imported one and promote it in one step). Refused while pointer configs trust the CA unless --yes; `ca rotate --cert --key` keeps them working. Not needed to put the active CA''s own key back. No key is lost: a replaced one is kept as tls/mcs-ca-previous.key or under tls/retired/ (and listed)'
            cand -y 'With --force: replace the CA even though copies of the pointer configs stop working'
            cand --yes 'With --force: replace the CA even though copies of the pointer configs stop working'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcsctl;ca;rotate'= {
            cand --key-algorithm 'Key algorithm of the new CA key (default: the active CA''s)'
            cand --validity 'Validity of the new CA'
            cand --cert 'Rotate to an existing CA instead of a new one: its certificate (PEM or DER)'
            cand --key 'The existing CA''s private key (PEM or DER)'
            cand --dir 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)'
            cand -o 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --format 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcsctl;ca;promote'= {
            cand --validity 'Validity of the re-issued serving certificate (never beyond the new CA''s)'
            cand --dir 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)'
            cand -o 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --format 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand --force 'Promote even though some pointer configs here do not trust the new CA (they are named)'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcsctl;ca;retire'= {
            cand --dir 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)'
            cand -o 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --format 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand --purge 'Also delete the keys of retired CAs kept under tls/retired/: the one way mcsctl deletes a CA key. Without it, the retired CA''s key is kept there (and listed)'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcsctl;ca;help'= {
            cand create 'Create the MCS CA; with --force over an existing one, rotate to a new CA and promote it at once'
            cand import 'Adopt an existing CA (openshift-install''s tls/root-ca.{crt,key}), or trust a cluster''s CA bundle'
            cand rotate 'Phase 1 of 3: introduce a new CA beside the active one; pointer configs trust both'
            cand promote 'Phase 2 of 3: re-issue the serving certificate from the new CA, which becomes the active one'
            cand retire 'Phase 3 of 3: drop the previous CA from the bundle and every pointer config'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'mcsctl;ca;help;create'= {
        }
        &'mcsctl;ca;help;import'= {
        }
        &'mcsctl;ca;help;rotate'= {
        }
        &'mcsctl;ca;help;promote'= {
        }
        &'mcsctl;ca;help;retire'= {
        }
        &'mcsctl;ca;help;help'= {
        }
        &'mcsctl;cert'= {
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand issue 'Issue the serving certificate (tls/mcs.crt, tls/mcs.key), signed by the CA'
            cand renew 'Renew the serving certificate: same CA, same SANs, new key'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'mcsctl;cert;issue'= {
            cand --san 'A subject alternative name (DNS name or IP) to add; repeatable. The certificate always names api-int and the hosts of the URLs in mcsctl.json, and keeps the current certificate''s names unless --replace-sans'
            cand --key-algorithm 'Key algorithm of the serving key (default: the one recorded in mcsctl.json, else the CA''s)'
            cand --validity 'Validity; never beyond the CA''s notAfter'
            cand --dir 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)'
            cand -o 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --format 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand --replace-sans 'Leave out the current certificate''s names: the new one names api-int, the recorded URL hosts and --san only'
            cand --force 'Replace an existing serving certificate'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcsctl;cert;renew'= {
            cand --key-algorithm 'Key algorithm of the new key (default: the one of the current key)'
            cand --validity 'Validity; never beyond the CA''s notAfter'
            cand --dir 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)'
            cand -o 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --format 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcsctl;cert;help'= {
            cand issue 'Issue the serving certificate (tls/mcs.crt, tls/mcs.key), signed by the CA'
            cand renew 'Renew the serving certificate: same CA, same SANs, new key'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'mcsctl;cert;help;issue'= {
        }
        &'mcsctl;cert;help;renew'= {
        }
        &'mcsctl;cert;help;help'= {
        }
        &'mcsctl;pointer'= {
            cand --pool 'Machine pool (a DNS label, e.g. worker or master)'
            cand --url 'Merge source URL, or the MCS address (HOST[:PORT], completed with /config/<pool>); remembered for the pool in mcsctl.json (default: init --url, else https://api-int.<cluster>.<base-domain>:22623/config/<pool>)'
            cand --spec-version 'Ignition spec version (3.0.0 to 3.4.0; default from mcsctl.json)'
            cand --token-transport 'How the token is carried (default from mcsctl.json; none for no token)'
            cand --output 'Where to write: a file, or - for stdout (default <dir>/<pool>.ign)'
            cand --dir 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)'
            cand -o 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --format 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand --base64 'Write the config base64-encoded, as cloud user-data fields expect'
            cand --force 'Replace an existing file'
            cand --new-pool 'The pool is new, not a typo: it may have no rendered config and not be in mcsctl.json''s pools (it is added there). Without it such a pool is refused, naming the known ones'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcsctl;token'= {
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand create 'Create a new token, the current one (carried by pointer configs) of each pool without one'
            cand rotate 'Make a new current token, keep the old one valid for --grace, rewrite every pointer config'
            cand list 'List tokens (ids, states, expiry; never secrets)'
            cand revoke 'Revoke a token by id'
            cand prune 'Remove expired and revoked tokens from auth/tokens.json'
            cand publish 'Publish the directory''s tokens to the store serve replicas share (again, after a publish failed, or to move the directory to another store)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'mcsctl;token;create'= {
            cand --ttl 'Lifetime of the token (e.g. 24h, 30d); default: no expiry'
            cand --description 'Free-text description shown by `token list`'
            cand --pool 'A pool whose config the token may fetch; repeatable (default: every pool of mcsctl.json). With --print-pointer, the pointer config printed is the first pool''s'
            cand --store 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token''s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica''s ledger file'
            cand --store-ca 'The CA that signed the etcd members'' serving certificates (PEM): the store is reached over TLS'
            cand --store-cert 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)'
            cand --store-key 'The client certificate''s key (PEM)'
            cand --store-prefix 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)'
            cand --dir 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)'
            cand -o 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --format 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand --print-pointer 'Print a ready pointer config carrying the new token on stdout, as `kubeadm token create --print-join-command` prints a join command'
            cand --new-pool 'The pool is new, not a typo: it may have no rendered config and not be in mcsctl.json''s pools (it is added there). Without it such a pool is refused, naming the known ones'
            cand --store-insecure 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcsctl;token;rotate'= {
            cand --grace 'How long the previous current token stays valid'
            cand --ttl 'Lifetime of the new token; default: no expiry'
            cand --description 'Free-text description of the new token'
            cand --store 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token''s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica''s ledger file'
            cand --store-ca 'The CA that signed the etcd members'' serving certificates (PEM): the store is reached over TLS'
            cand --store-cert 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)'
            cand --store-key 'The client certificate''s key (PEM)'
            cand --store-prefix 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)'
            cand --dir 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)'
            cand -o 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --format 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand --store-insecure 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcsctl;token;list'= {
            cand --dir 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)'
            cand -o 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --format 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcsctl;token;revoke'= {
            cand --store 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token''s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica''s ledger file'
            cand --store-ca 'The CA that signed the etcd members'' serving certificates (PEM): the store is reached over TLS'
            cand --store-cert 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)'
            cand --store-key 'The client certificate''s key (PEM)'
            cand --store-prefix 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)'
            cand --dir 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)'
            cand -o 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --format 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand --store-insecure 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcsctl;token;prune'= {
            cand --store 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token''s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica''s ledger file'
            cand --store-ca 'The CA that signed the etcd members'' serving certificates (PEM): the store is reached over TLS'
            cand --store-cert 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)'
            cand --store-key 'The client certificate''s key (PEM)'
            cand --store-prefix 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)'
            cand --dir 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)'
            cand -o 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --format 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand --store-insecure 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcsctl;token;publish'= {
            cand --store 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token''s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica''s ledger file'
            cand --store-ca 'The CA that signed the etcd members'' serving certificates (PEM): the store is reached over TLS'
            cand --store-cert 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)'
            cand --store-key 'The client certificate''s key (PEM)'
            cand --store-prefix 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)'
            cand --dir 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)'
            cand -o 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --format 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand --store-insecure 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcsctl;token;help'= {
            cand create 'Create a new token, the current one (carried by pointer configs) of each pool without one'
            cand rotate 'Make a new current token, keep the old one valid for --grace, rewrite every pointer config'
            cand list 'List tokens (ids, states, expiry; never secrets)'
            cand revoke 'Revoke a token by id'
            cand prune 'Remove expired and revoked tokens from auth/tokens.json'
            cand publish 'Publish the directory''s tokens to the store serve replicas share (again, after a publish failed, or to move the directory to another store)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'mcsctl;token;help;create'= {
        }
        &'mcsctl;token;help;rotate'= {
        }
        &'mcsctl;token;help;list'= {
        }
        &'mcsctl;token;help;revoke'= {
        }
        &'mcsctl;token;help;prune'= {
        }
        &'mcsctl;token;help;publish'= {
        }
        &'mcsctl;token;help;help'= {
        }
        &'mcsctl;machine'= {
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand add 'Register a machine: its own pointer config (machines/NAME.ign) with a token bound to it, scoped to its pool, single-use by default'
            cand list 'List the registered machines (tokens by id, never secrets)'
            cand remove 'Unregister a machine: its token is revoked, its pointer config removed'
            cand watch 'Follow the machines'' timelines until each is done or stopped (a table on a terminal, a JSON line per change otherwise)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'mcsctl;machine;add'= {
            cand --pool 'The pool whose config it fetches'
            cand --ip 'An address the machine is expected at (repeatable): a serving CSR may name it'
            cand --from 'Register every machine of a list: CSV lines `name,pool,addresses` (addresses separated by spaces or '';''), or YAML (a list of {name, pool, addresses}); - for stdin'
            cand --ttl 'Lifetime of its token (e.g. 24h); default: no expiry'
            cand --uses 'How many full-config fetches its token allows (0: any number)'
            cand --store 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token''s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica''s ledger file'
            cand --store-ca 'The CA that signed the etcd members'' serving certificates (PEM): the store is reached over TLS'
            cand --store-cert 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)'
            cand --store-key 'The client certificate''s key (PEM)'
            cand --store-prefix 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)'
            cand --dir 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)'
            cand -o 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --format 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand --force 'Replace a machine of that name (its old token is revoked)'
            cand --new-pool 'The pool is new, not a typo: it may have no rendered config and not be in mcsctl.json''s pools (it is added there). Without it such a pool is refused, naming the known ones'
            cand --store-insecure 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcsctl;machine;list'= {
            cand --ledger 'Another replica''s ledger to merge (repeatable); every <dir>/auth/ledger/*.jsonl is read'
            cand --csrs 'The cluster''s CSRs (`oc get csr -o json`): each machine''s trail goes on to its CSRs'
            cand --nodes 'The cluster''s Nodes (`oc get nodes -o json`): the trail ends at a Ready node'
            cand --store 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token''s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica''s ledger file'
            cand --store-ca 'The CA that signed the etcd members'' serving certificates (PEM): the store is reached over TLS'
            cand --store-cert 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)'
            cand --store-key 'The client certificate''s key (PEM)'
            cand --store-prefix 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)'
            cand --dir 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)'
            cand -o 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --format 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand --store-insecure 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcsctl;machine;remove'= {
            cand --store 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token''s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica''s ledger file'
            cand --store-ca 'The CA that signed the etcd members'' serving certificates (PEM): the store is reached over TLS'
            cand --store-cert 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)'
            cand --store-key 'The client certificate''s key (PEM)'
            cand --store-prefix 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)'
            cand --dir 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)'
            cand -o 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --format 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand --store-insecure 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcsctl;machine;watch'= {
            cand --ledger 'Another replica''s ledger to merge (repeatable); every <dir>/auth/ledger/*.jsonl is read'
            cand --csrs 'The cluster''s CSRs (`oc get csr -o json`): each machine''s trail goes on to its CSRs'
            cand --nodes 'The cluster''s Nodes (`oc get nodes -o json`): the trail ends at a Ready node'
            cand --store 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token''s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica''s ledger file'
            cand --store-ca 'The CA that signed the etcd members'' serving certificates (PEM): the store is reached over TLS'
            cand --store-cert 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)'
            cand --store-key 'The client certificate''s key (PEM)'
            cand --store-prefix 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)'
            cand --dir 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)'
            cand -o 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --format 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --timeout 'How long to watch before giving up (exit 1)'
            cand --interval 'How often to look again'
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand --store-insecure 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcsctl;machine;help'= {
            cand add 'Register a machine: its own pointer config (machines/NAME.ign) with a token bound to it, scoped to its pool, single-use by default'
            cand list 'List the registered machines (tokens by id, never secrets)'
            cand remove 'Unregister a machine: its token is revoked, its pointer config removed'
            cand watch 'Follow the machines'' timelines until each is done or stopped (a table on a terminal, a JSON line per change otherwise)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'mcsctl;machine;help;add'= {
        }
        &'mcsctl;machine;help;list'= {
        }
        &'mcsctl;machine;help;remove'= {
        }
        &'mcsctl;machine;help;watch'= {
        }
        &'mcsctl;machine;help;help'= {
        }
        &'mcsctl;inspect'= {
            cand --remote 'Connect to a live TLS endpoint, show the chain it presents and check each named pointer config against it'
            cand --server-name 'Server name to send (SNI) with --remote (default: the host of HOST:PORT)'
            cand --ca 'CA bundle to verify --remote against (default: the asset CA bundle when present)'
            cand --warn-within 'Warn (exit 3) about certificates expiring within this duration'
            cand --ledger 'Another replica''s ledger to read machine tokens'' fetches from (repeatable); every <dir>/auth/ledger/*.jsonl is read'
            cand --store 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token''s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica''s ledger file'
            cand --store-ca 'The CA that signed the etcd members'' serving certificates (PEM): the store is reached over TLS'
            cand --store-cert 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)'
            cand --store-key 'The client certificate''s key (PEM)'
            cand --store-prefix 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)'
            cand --dir 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)'
            cand -o 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --format 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand --store-insecure 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcsctl;render'= {
            cand --machine-configs 'MachineConfigs: a YAML or JSON file (multi-document or `kind: List`), a directory of them, or -'
            cand --controller-config 'The cluster''s ControllerConfig (`oc get controllerconfig machine-config-controller -o yaml`), whose OS and extensions images controller-generated MachineConfigs take, as the MCO merges them (one among the --machine-configs inputs is taken too)'
            cand --from-cluster 'What the in-cluster MCS would serve, from a snapshot of the cluster (`oc get -o yaml` of the MachineConfigPools, MachineConfigs, ControllerConfig, the node-bootstrapper-token Secret and the kubeconfig-data ConfigMap): a file, a YAML stream, a directory, or -'
            cand --for 'What the configs are for (default: the flavour recorded in mcsctl.json, else openshift); recorded'
            cand --bootstrap-kubeconfig 'The kubelet''s bootstrap kubeconfig (kept as auth/bootstrap-kubeconfig, 0600, for later renders)'
            cand --spec-version 'Ignition spec of the coreos flavour''s output, 3.0.0 to 3.5.0 (default: the newest input version, at least 3.2.0). The openshift flavour keeps the MCO''s internal 3.5.0 and serve answers each client at its own spec, as the MCS does'
            cand --allow-sensitive 'A file path (or systemd unit name) allowed to hold a secret in the pre-approval set; repeatable'
            cand --current 'The cluster''s current rendered MachineConfig of the pool (`oc get mc rendered-<pool>-<hash> -o yaml`): the new merge is checked against it by the MCO''s reconcile rules, as on a running cluster. Without it, against the directory''s rendered/<pool>.ign; a pool with neither is a first render, not checked'
            cand --allow-irreconcilable 'Storage sections a day-2 render may change although running nodes never apply them in place (the MCO''s IrreconcilableValidationOverrides.storage): disks, filesystems, raid; comma-separated or repeated. Existing nodes keep their config; new machines get the new one'
            cand --from-mcs 'Store what a live config server serves for --pool (the in-cluster MCS, or another mcsctl serve)'
            cand --pool 'The pool to fetch with --from-mcs (appended to the URL as /config/POOL when it has no path); with --from-cluster, the one pool to take (default: every pool)'
            cand --ca 'CA bundle the server''s certificate must chain to: PEM, or a pointer config that trusts it (default: tls/mcs-ca-bundle.crt)'
            cand --token 'Bearer token for --from-mcs (or from the environment, so it stays out of `ps`)'
            cand --dir 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)'
            cand -o 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --format 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand --strict 'Refuse what the MCO would drop (unknown spec fields, unknown Ignition keys) instead of dropping it with a warning'
            cand --no-bootstrap-kubeconfig 'OpenShift configs without a bootstrap kubeconfig are meant (nodes booted from them never join): without it, render refuses them'
            cand --force 'Replace a different auth/bootstrap-kubeconfig'
            cand --report 'Add the first-boot report to the full config of each pool rendered: once up after Ignition, a machine posts one report to serve (`machine list` shows it). Remembered in mcsctl.json for later renders; the pre-approval set never carries it'
            cand --no-report 'Stop adding the first-boot report to the pools rendered (remembered)'
            cand --replace 'Replace a pool''s config even when MachineConfigs, files or units it serves now would disappear (without it render refuses and names them)'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcsctl;serve'= {
            cand --log-format 'How the access log (stdout) and events (stderr) are written: readable lines (text), JSON lines (json), or auto: text on a terminal, JSON otherwise, for each stream'
            cand --metrics-listen 'Answer Prometheus scrapes at http://ADDR/metrics (plain HTTP; 127.0.0.1:9623 when given without ADDR): requests by pool, status and auth outcome, failed handshakes, machine fetches, token and certificate expiry, reloads, config sizes, connections'
            cand --ledger 'Where this replica records each fetch of a machine token (default <dir>/auth/ledger/<hostname>.jsonl), locked while serve writes it; every ledger under <dir>/auth/ledger counts, read on at each reload poll'
            cand --store 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token''s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica''s ledger file'
            cand --store-ca 'The CA that signed the etcd members'' serving certificates (PEM): the store is reached over TLS'
            cand --store-cert 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)'
            cand --store-key 'The client certificate''s key (PEM)'
            cand --store-prefix 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)'
            cand --store-grace 'With --store: how long pool tokens keep being served from the last state the store published while it does not answer (machine tokens wait for it at once: 503); then they get 503 too, until it answers'
            cand --store-lease 'With --store: the lease this replica holds its fetches under, renewed every third of it. A replica that stops renewing it (killed, paused, cut off from the members) is taken for gone once it ends, by the store''s clock: its fetches that had not begun sending their end are given back. Shorter frees a dead replica''s machines sooner; at least 2s'
            cand --max-partial-fetches 'How many fetches of a machine token with limited uses may be cut off before their end (a network that drops, a client that stops reading): each gives the use back and the machine may fetch again; past this many, the token is refused (401) until `mcsctl machine add NAME --force` gives it a new one'
            cand --listen 'HTTPS listen address'
            cand --insecure-listen 'Also listen for plain HTTP (the MCS historically used port 22624). Off by default'
            cand --auth 'Auth mode (default: serveAuth of mcsctl.json, else token; never chosen by how many tokens are live)'
            cand --header-timeout 'Time allowed to send a request''s headers; also the idle keep-alive timeout'
            cand --handshake-timeout 'Time allowed for a TLS handshake (and a PROXY protocol header)'
            cand --write-timeout 'How long a response may stay unsent because the client does not read; then the connection is cut'
            cand --min-send-rate 'Average bytes per second a response must be read at once it has taken longer than --write-timeout; a slower reader is cut off (a `slow-client` event)'
            cand --connection-deadline 'How long one connection may stay open; then it is closed after the request in flight (which gets --write-timeout more to finish)'
            cand --proxy-protocol-from 'Load balancer (address or CIDR) whose connections start with a PROXY protocol v1/v2 header; repeatable (default: proxyProtocolFrom of mcsctl.json)'
            cand --max-connections 'Most connections open at once; past it, an idle connection of the client holding the most is closed to let a newcomer in (none idle: the newcomer is closed)'
            cand --max-connections-per-client 'Most connections one client (address; IPv6 /64; behind a PROXY-protocol balancer, the client it names) may hold (default: an eighth of --max-connections)'
            cand --max-header-bytes 'Largest request head in bytes; larger requests get 431'
            cand --reload-interval 'How often to look for changed certificates, tokens and rendered configs (SIGHUP reloads at once)'
            cand --drain-timeout 'How long SIGTERM waits for in-flight requests before exiting'
            cand --max-failures 'Unknown tokens per client (address; IPv6 /64) per minute before it gets 429; valid tokens are always served'
            cand --block-for 'How long a client that exceeded --max-failures gets 429'
            cand --dir 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)'
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand --store-insecure 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused'
            cand --reload 'Do not serve: send SIGHUP to the serve(s) of --dir, found by the run/serve-PID.pid files each writes there, and exit (1 when none is running)'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcsctl;doctor'= {
            cand --resolve 'Use ADDR for HOST instead of DNS, like curl: HOST:ADDR or HOST:PORT:ADDR; repeatable'
            cand --ignition-spec 'The newest Ignition spec the simulated client reads (Ignition 2.14 reads 3.3.0, 2.20 reads 3.5.0); a newer pointer config fails at step parse'
            cand --timeout 'Time allowed for each network step'
            cand --dir 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)'
            cand -o 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --format 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand --fetch 'Fetch the config even when the pointer''s token has limited uses (a machine''s single-use token): that spends one, and the machine then gets 401. Without it such a token is checked with HEAD (TLS, auth, its state), which spends nothing'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcsctl;csr'= {
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand review 'Decide, for each pending kubelet CSR, approve / leave pending / ignore, and why'
            cand sign 'Issue a kubelet client or serving certificate for a CSR from a CA'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'mcsctl;csr;review'= {
            cand --csrs 'CSRs: `oc get csr -o json` output (a List or one object, JSON or YAML), or - for stdin'
            cand --machines 'Machines: `oc get machines -A -o json` (Machine API clusters)'
            cand --nodes 'Nodes: `oc get nodes -o json`'
            cand --inventory 'UPI inventory of expected hosts (format in docs/node-admission.md), instead of or besides --machines'
            cand --now 'The time to decide at (RFC 3339); default: now. Makes decisions reproducible'
            cand --kubelet-ca 'Kubelet CA bundle (ConfigMap openshift-config-managed/csr-controller-ca, ca-bundle.crt); enables renewals'
            cand --serving-certs 'Directory of the serving certificates nodes present now, one PEM per node: <node>.pem or <node>.crt'
            cand --fetch-timeout 'Time allowed for each kubelet connection with --fetch-serving-certs'
            cand --network-type 'The cluster''s network type (networks.config.openshift.io/cluster status.networkType)'
            cand --host-subnets 'OpenShiftSDN HostSubnets (`oc get hostsubnets -o json`) for the egress-IP fallback'
            cand --approver-config 'cluster-machine-approver config file (YAML); honours nodeClientCert.disabled'
            cand --window 'With evidence: how long after a machine''s first fetch its client CSR may come'
            cand --clock-skew 'With evidence: how far serve''s clock (the ledger''s times) and the API server''s (the CSRs'') may disagree; a client CSR is judged against the window widened by this much on either side'
            cand --ledger 'With evidence: another replica''s ledger to merge (repeatable)'
            cand --store 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token''s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica''s ledger file'
            cand --store-ca 'The CA that signed the etcd members'' serving certificates (PEM): the store is reached over TLS'
            cand --store-cert 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)'
            cand --store-key 'The client certificate''s key (PEM)'
            cand --store-prefix 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)'
            cand --dir 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)'
            cand -o 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --format 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand --fetch-serving-certs 'Fetch each node''s current serving certificate from its kubelet (first InternalIP, kubelet port)'
            cand --approve-names 'Print only the names of CSRs to approve, one a line (for `xargs oc adm certificate approve`)'
            cand --evidence 'Decide from evidence: a client CSR only for a machine registered with `machine add` whose token fetched its config (the ledger) within --window before it; a serving CSR only for the fetch and registered addresses. The default when the asset directory has registered machines and neither --machines nor --inventory is given'
            cand --store-insecure 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcsctl;csr;sign'= {
            cand --csr 'The request: a PEM CERTIFICATE REQUEST, or a CertificateSigningRequest object (JSON or YAML)'
            cand --ca-cert 'The kubelet signer''s CA certificate (the cluster''s csr-signer). Never the MCS CA: a signer that pointer configs or the MCS bundle trust is refused'
            cand --ca-key 'The kubelet signer''s private key'
            cand --address 'An address of the node a serving certificate may name besides the node name (its InternalIP, ExternalIP or a hostname, as `oc get node NAME -o wide` shows); repeatable'
            cand --validity 'Validity of the certificate; never beyond the CA''s'
            cand --output 'Where to write the certificate PEM (default: stdout)'
            cand --dir 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)'
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand --force 'Replace an existing output file'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcsctl;csr;help'= {
            cand review 'Decide, for each pending kubelet CSR, approve / leave pending / ignore, and why'
            cand sign 'Issue a kubelet client or serving certificate for a CSR from a CA'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'mcsctl;csr;help;review'= {
        }
        &'mcsctl;csr;help;sign'= {
        }
        &'mcsctl;csr;help;help'= {
        }
        &'mcsctl;manifests'= {
            cand --output 'Directory to write into (default: <dir>/manifests)'
            cand --image 'Container image with mcsctl, for --serve-deployment'
            cand --namespace 'Namespace of the serve Deployment, Service and their Secrets'
            cand --service-type 'How booting machines reach the serve Service (with --host-network: the nodes'' port 22623 instead)'
            cand --auth 'Auth mode of the deployed serve'
            cand --replicas 'Replicas of the serve Deployment. With machine tokens in the asset directory and no --store it must be 1: each replica would keep a ledger of its own, and a single-use token spent on one would fetch again on another'
            cand --store 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token''s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica''s ledger file'
            cand --store-ca 'The CA that signed the etcd members'' serving certificates (PEM): the store is reached over TLS'
            cand --store-cert 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)'
            cand --store-key 'The client certificate''s key (PEM)'
            cand --store-prefix 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)'
            cand --dir 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)'
            cand -o 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --format 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand --serve-deployment 'Also write what runs `mcsctl serve` from Secrets: a Deployment (--replicas, 2) and a Service, or with --host-network a DaemonSet on the control plane nodes. A single replica records machine-token fetches on a PersistentVolumeClaim'
            cand --host-network 'Run serve on the control plane nodes'' host network, port 22623 (where a UPI load balancer already points, as the real MCS runs), tolerating their taints'
            cand --store-insecure 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused'
            cand --include-ca-key 'Also write the MCS CA''s private key (Secret openshift-machine-config-operator/ machine-config-server-ca), for a cluster whose MCO rotates the CA itself (4.19+). Without it the key stays offline in the asset directory'
            cand --include-root-ca 'Also write ConfigMap kube-system/root-ca with the MCS CA: only for a cluster whose root-ca was made by this asset directory (openshift-install writes it at install; it serves more than the MCS)'
            cand --force 'Replace existing files'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcsctl;ledger'= {
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand import 'Import the ledger files (<dir>/auth/ledger/*.jsonl and --ledger) into the store: every fetch record, and each single-use token''s fetches counted there, so a token spent before the move stays spent on every replica after it. Run it again at will: a record is imported once'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'mcsctl;ledger;import'= {
            cand --ledger 'Another replica''s ledger to import too (repeatable)'
            cand --store 'The etcd cluster serve replicas share (etcd://HOST:PORT[,HOST:PORT...]): each machine token''s fetches are claimed there in one transaction, so a single-use token is served once across replicas, and their records are the evidence `csr review` and `machine list` read. Without it, this replica''s ledger file'
            cand --store-ca 'The CA that signed the etcd members'' serving certificates (PEM): the store is reached over TLS'
            cand --store-cert 'A client certificate for the etcd members (PEM; with --store-key and --store-ca)'
            cand --store-key 'The client certificate''s key (PEM)'
            cand --store-prefix 'The key prefix of this cluster in the store (default /mcsctl/<cluster>.<base domain>/)'
            cand --dir 'Asset directory: CA, serving certificate, tokens, pointer configs (default: $MCSCTL_DIR, else mcs-assets)'
            cand -o 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --format 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand --store-insecure 'Reach the store in plaintext (no --store-ca): anyone on the path could forge tokens or give a spent one back. For a lab on one host only; without it, a store without --store-ca is refused'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcsctl;ledger;help'= {
            cand import 'Import the ledger files (<dir>/auth/ledger/*.jsonl and --ledger) into the store: every fetch record, and each single-use token''s fetches counted there, so a token spent before the move stays spent on every replica after it. Run it again at will: a record is imported once'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'mcsctl;ledger;help;import'= {
        }
        &'mcsctl;ledger;help;help'= {
        }
        &'mcsctl;completions'= {
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcsctl;man'= {
            cand --output 'Directory to write the pages into (created when missing)'
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcsctl;version'= {
            cand -o 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --format 'Output format of the data written to stdout (default text); `-o` as in oc and kubectl'
            cand --max-input-size 'The most bytes read from one input file, stdin or HTTP response (default 32MiB); larger inputs are refused'
            cand -q 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand --quiet 'Print only data, warnings and errors: no progress, no report of what was written, no next steps'
            cand -v 'Also print, on stderr, each file read and written and each decision taken'
            cand --verbose 'Also print, on stderr, each file read and written and each decision taken'
            cand --non-interactive 'Never prompt; fail naming missing values instead (implied when stdin is not a terminal)'
            cand --dry-run 'Do everything but write: the command''s checks run and its report says what it would write; no file, no store, no new asset directory is touched'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcsctl;help'= {
            cand init 'Create the whole asset directory in one step: CA, serving certificate, token, pointer configs'
            cand ca 'Create, import or rotate the MCS CA'
            cand cert 'Issue or renew the MCS serving certificate'
            cand pointer 'Write an Ignition pointer config for a pool'
            cand token 'Manage bearer provisioning tokens'
            cand machine 'Register the machines a UPI cluster expects, each with its own single-use pointer config'
            cand inspect 'Check expiry and consistency of certificates, pointer configs, the asset directory or a live endpoint'
            cand render 'Render MachineConfigs into rendered/<pool>.ign and the pre-approval subset'
            cand serve 'Serve rendered configs over TLS to booting machines (the Machine Config Server)'
            cand doctor 'Do what Ignition does with a pointer config, step by step, and say which step fails'
            cand csr 'Review kubelet CSRs by the cluster-machine-approver''s rules, or sign one'
            cand manifests 'Write Kubernetes objects for the cluster, and optionally a Deployment running `mcsctl serve`'
            cand ledger 'Move the provisioning ledger files into the store serve replicas share'
            cand completions 'Print a static shell completion script to stdout (commands and flags). For completions that also offer the asset directory''s pools, token ids and machines, have the shell ask mcsctl: `source <(COMPLETE=bash mcsctl)` in ~/.bashrc (zsh alike; fish: `COMPLETE=fish mcsctl | source`)'
            cand man 'Write one man page per command into a directory'
            cand version 'Print mcsctl''s version, the commit and target it was built for, and the TLS and Ignition spec versions it speaks'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'mcsctl;help;init'= {
        }
        &'mcsctl;help;ca'= {
            cand create 'Create the MCS CA; with --force over an existing one, rotate to a new CA and promote it at once'
            cand import 'Adopt an existing CA (openshift-install''s tls/root-ca.{crt,key}), or trust a cluster''s CA bundle'
            cand rotate 'Phase 1 of 3: introduce a new CA beside the active one; pointer configs trust both'
            cand promote 'Phase 2 of 3: re-issue the serving certificate from the new CA, which becomes the active one'
            cand retire 'Phase 3 of 3: drop the previous CA from the bundle and every pointer config'
        }
        &'mcsctl;help;ca;create'= {
        }
        &'mcsctl;help;ca;import'= {
        }
        &'mcsctl;help;ca;rotate'= {
        }
        &'mcsctl;help;ca;promote'= {
        }
        &'mcsctl;help;ca;retire'= {
        }
        &'mcsctl;help;cert'= {
            cand issue 'Issue the serving certificate (tls/mcs.crt, tls/mcs.key), signed by the CA'
            cand renew 'Renew the serving certificate: same CA, same SANs, new key'
        }
        &'mcsctl;help;cert;issue'= {
        }
        &'mcsctl;help;cert;renew'= {
        }
        &'mcsctl;help;pointer'= {
        }
        &'mcsctl;help;token'= {
            cand create 'Create a new token, the current one (carried by pointer configs) of each pool without one'
            cand rotate 'Make a new current token, keep the old one valid for --grace, rewrite every pointer config'
            cand list 'List tokens (ids, states, expiry; never secrets)'
            cand revoke 'Revoke a token by id'
            cand prune 'Remove expired and revoked tokens from auth/tokens.json'
            cand publish 'Publish the directory''s tokens to the store serve replicas share (again, after a publish failed, or to move the directory to another store)'
        }
        &'mcsctl;help;token;create'= {
        }
        &'mcsctl;help;token;rotate'= {
        }
        &'mcsctl;help;token;list'= {
        }
        &'mcsctl;help;token;revoke'= {
        }
        &'mcsctl;help;token;prune'= {
        }
        &'mcsctl;help;token;publish'= {
        }
        &'mcsctl;help;machine'= {
            cand add 'Register a machine: its own pointer config (machines/NAME.ign) with a token bound to it, scoped to its pool, single-use by default'
            cand list 'List the registered machines (tokens by id, never secrets)'
            cand remove 'Unregister a machine: its token is revoked, its pointer config removed'
            cand watch 'Follow the machines'' timelines until each is done or stopped (a table on a terminal, a JSON line per change otherwise)'
        }
        &'mcsctl;help;machine;add'= {
        }
        &'mcsctl;help;machine;list'= {
        }
        &'mcsctl;help;machine;remove'= {
        }
        &'mcsctl;help;machine;watch'= {
        }
        &'mcsctl;help;inspect'= {
        }
        &'mcsctl;help;render'= {
        }
        &'mcsctl;help;serve'= {
        }
        &'mcsctl;help;doctor'= {
        }
        &'mcsctl;help;csr'= {
            cand review 'Decide, for each pending kubelet CSR, approve / leave pending / ignore, and why'
            cand sign 'Issue a kubelet client or serving certificate for a CSR from a CA'
        }
        &'mcsctl;help;csr;review'= {
        }
        &'mcsctl;help;csr;sign'= {
        }
        &'mcsctl;help;manifests'= {
        }
        &'mcsctl;help;ledger'= {
            cand import 'Import the ledger files (<dir>/auth/ledger/*.jsonl and --ledger) into the store: every fetch record, and each single-use token''s fetches counted there, so a token spent before the move stays spent on every replica after it. Run it again at will: a record is imported once'
        }
        &'mcsctl;help;ledger;import'= {
        }
        &'mcsctl;help;completions'= {
        }
        &'mcsctl;help;man'= {
        }
        &'mcsctl;help;version'= {
        }
        &'mcsctl;help;help'= {
        }
    ]
    $completions[$command]
}
