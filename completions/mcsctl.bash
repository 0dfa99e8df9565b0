_mcsctl() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="mcsctl"
                ;;
            mcsctl,ca)
                cmd="mcsctl__subcmd__ca"
                ;;
            mcsctl,cert)
                cmd="mcsctl__subcmd__cert"
                ;;
            mcsctl,completions)
                cmd="mcsctl__subcmd__completions"
                ;;
            mcsctl,csr)
                cmd="mcsctl__subcmd__csr"
                ;;
            mcsctl,doctor)
                cmd="mcsctl__subcmd__doctor"
                ;;
            mcsctl,help)
                cmd="mcsctl__subcmd__help"
                ;;
            mcsctl,init)
                cmd="mcsctl__subcmd__init"
                ;;
            mcsctl,inspect)
                cmd="mcsctl__subcmd__inspect"
                ;;
            mcsctl,ledger)
                cmd="mcsctl__subcmd__ledger"
                ;;
            mcsctl,machine)
                cmd="mcsctl__subcmd__machine"
                ;;
            mcsctl,man)
                cmd="mcsctl__subcmd__man"
                ;;
            mcsctl,manifests)
                cmd="mcsctl__subcmd__manifests"
                ;;
            mcsctl,pointer)
                cmd="mcsctl__subcmd__pointer"
                ;;
            mcsctl,render)
                cmd="mcsctl__subcmd__render"
                ;;
            mcsctl,serve)
                cmd="mcsctl__subcmd__serve"
                ;;
            mcsctl,token)
                cmd="mcsctl__subcmd__token"
                ;;
            mcsctl,version)
                cmd="mcsctl__subcmd__version"
                ;;
            mcsctl__subcmd__ca,create)
                cmd="mcsctl__subcmd__ca__subcmd__create"
                ;;
            mcsctl__subcmd__ca,help)
                cmd="mcsctl__subcmd__ca__subcmd__help"
                ;;
            mcsctl__subcmd__ca,import)
                cmd="mcsctl__subcmd__ca__subcmd__import"
                ;;
            mcsctl__subcmd__ca,promote)
                cmd="mcsctl__subcmd__ca__subcmd__promote"
                ;;
            mcsctl__subcmd__ca,retire)
                cmd="mcsctl__subcmd__ca__subcmd__retire"
                ;;
            mcsctl__subcmd__ca,rotate)
                cmd="mcsctl__subcmd__ca__subcmd__rotate"
                ;;
            mcsctl__subcmd__ca__subcmd__help,create)
                cmd="mcsctl__subcmd__ca__subcmd__help__subcmd__create"
                ;;
            mcsctl__subcmd__ca__subcmd__help,help)
                cmd="mcsctl__subcmd__ca__subcmd__help__subcmd__help"
                ;;
            mcsctl__subcmd__ca__subcmd__help,import)
                cmd="mcsctl__subcmd__ca__subcmd__help__subcmd__import"
                ;;
            mcsctl__subcmd__ca__subcmd__help,promote)
                cmd="mcsctl__subcmd__ca__subcmd__help__subcmd__promote"
                ;;
            mcsctl__subcmd__ca__subcmd__help,retire)
                cmd="mcsctl__subcmd__ca__subcmd__help__subcmd__retire"
                ;;
            mcsctl__subcmd__ca__subcmd__help,rotate)
                cmd="mcsctl__subcmd__ca__subcmd__help__subcmd__rotate"
                ;;
            mcsctl__subcmd__cert,help)
                cmd="mcsctl__subcmd__cert__subcmd__help"
                ;;
            mcsctl__subcmd__cert,issue)
                cmd="mcsctl__subcmd__cert__subcmd__issue"
                ;;
            mcsctl__subcmd__cert,renew)
                cmd="mcsctl__subcmd__cert__subcmd__renew"
                ;;
            mcsctl__subcmd__cert__subcmd__help,help)
                cmd="mcsctl__subcmd__cert__subcmd__help__subcmd__help"
                ;;
            mcsctl__subcmd__cert__subcmd__help,issue)
                cmd="mcsctl__subcmd__cert__subcmd__help__subcmd__issue"
                ;;
            mcsctl__subcmd__cert__subcmd__help,renew)
                cmd="mcsctl__subcmd__cert__subcmd__help__subcmd__renew"
                ;;
            mcsctl__subcmd__csr,help)
                cmd="mcsctl__subcmd__csr__subcmd__help"
                ;;
            mcsctl__subcmd__csr,review)
                cmd="mcsctl__subcmd__csr__subcmd__review"
                ;;
            mcsctl__subcmd__csr,sign)
                cmd="mcsctl__subcmd__csr__subcmd__sign"
                ;;
            mcsctl__subcmd__csr__subcmd__help,help)
                cmd="mcsctl__subcmd__csr__subcmd__help__subcmd__help"
                ;;
            mcsctl__subcmd__csr__subcmd__help,review)
                cmd="mcsctl__subcmd__csr__subcmd__help__subcmd__review"
                ;;
            mcsctl__subcmd__csr__subcmd__help,sign)
                cmd="mcsctl__subcmd__csr__subcmd__help__subcmd__sign"
                ;;
            mcsctl__subcmd__help,ca)
                cmd="mcsctl__subcmd__help__subcmd__ca"
                ;;
            mcsctl__subcmd__help,cert)
                cmd="mcsctl__subcmd__help__subcmd__cert"
                ;;
            mcsctl__subcmd__help,completions)
                cmd="mcsctl__subcmd__help__subcmd__completions"
                ;;
            mcsctl__subcmd__help,csr)
                cmd="mcsctl__subcmd__help__subcmd__csr"
                ;;
            mcsctl__subcmd__help,doctor)
                cmd="mcsctl__subcmd__help__subcmd__doctor"
                ;;
            mcsctl__subcmd__help,help)
                cmd="mcsctl__subcmd__help__subcmd__help"
                ;;
            mcsctl__subcmd__help,init)
                cmd="mcsctl__subcmd__help__subcmd__init"
                ;;
            mcsctl__subcmd__help,inspect)
                cmd="mcsctl__subcmd__help__subcmd__inspect"
                ;;
            mcsctl__subcmd__help,ledger)
                cmd="mcsctl__subcmd__help__subcmd__ledger"
                ;;
            mcsctl__subcmd__help,machine)
                cmd="mcsctl__subcmd__help__subcmd__machine"
                ;;
            mcsctl__subcmd__help,man)
                cmd="mcsctl__subcmd__help__subcmd__man"
                ;;
            mcsctl__subcmd__help,manifests)
                cmd="mcsctl__subcmd__help__subcmd__manifests"
                ;;
            mcsctl__subcmd__help,pointer)
                cmd="mcsctl__subcmd__help__subcmd__pointer"
                ;;
            mcsctl__subcmd__help,render)
                cmd="mcsctl__subcmd__help__subcmd__render"
                ;;
            mcsctl__subcmd__help,serve)
                cmd="mcsctl__subcmd__help__subcmd__serve"
                ;;
            mcsctl__subcmd__help,token)
                cmd="mcsctl__subcmd__help__subcmd__token"
                ;;
            mcsctl__subcmd__help,version)
                cmd="mcsctl__subcmd__help__subcmd__version"
                ;;
            mcsctl__subcmd__help__subcmd__ca,create)
                cmd="mcsctl__subcmd__help__subcmd__ca__subcmd__create"
                ;;
            mcsctl__subcmd__help__subcmd__ca,import)
                cmd="mcsctl__subcmd__help__subcmd__ca__subcmd__import"
                ;;
            mcsctl__subcmd__help__subcmd__ca,promote)
                cmd="mcsctl__subcmd__help__subcmd__ca__subcmd__promote"
                ;;
            mcsctl__subcmd__help__subcmd__ca,retire)
                cmd="mcsctl__subcmd__help__subcmd__ca__subcmd__retire"
                ;;
            mcsctl__subcmd__help__subcmd__ca,rotate)
                cmd="mcsctl__subcmd__help__subcmd__ca__subcmd__rotate"
                ;;
            mcsctl__subcmd__help__subcmd__cert,issue)
                cmd="mcsctl__subcmd__help__subcmd__cert__subcmd__issue"
                ;;
            mcsctl__subcmd__help__subcmd__cert,renew)
                cmd="mcsctl__subcmd__help__subcmd__cert__subcmd__renew"
                ;;
            mcsctl__subcmd__help__subcmd__csr,review)
                cmd="mcsctl__subcmd__help__subcmd__csr__subcmd__review"
                ;;
            mcsctl__subcmd__help__subcmd__csr,sign)
                cmd="mcsctl__subcmd__help__subcmd__csr__subcmd__sign"
                ;;
            mcsctl__subcmd__help__subcmd__ledger,import)
                cmd="mcsctl__subcmd__help__subcmd__ledger__subcmd__import"
                ;;
            mcsctl__subcmd__help__subcmd__machine,add)
                cmd="mcsctl__subcmd__help__subcmd__machine__subcmd__add"
                ;;
            mcsctl__subcmd__help__subcmd__machine,list)
                cmd="mcsctl__subcmd__help__subcmd__machine__subcmd__list"
                ;;
            mcsctl__subcmd__help__subcmd__machine,remove)
                cmd="mcsctl__subcmd__help__subcmd__machine__subcmd__remove"
                ;;
            mcsctl__subcmd__help__subcmd__machine,watch)
                cmd="mcsctl__subcmd__help__subcmd__machine__subcmd__watch"
                ;;
            mcsctl__subcmd__help__subcmd__token,create)
                cmd="mcsctl__subcmd__help__subcmd__token__subcmd__create"
                ;;
            mcsctl__subcmd__help__subcmd__token,list)
                cmd="mcsctl__subcmd__help__subcmd__token__subcmd__list"
                ;;
            mcsctl__subcmd__help__subcmd__token,prune)
                cmd="mcsctl__subcmd__help__subcmd__token__subcmd__prune"
                ;;
            mcsctl__subcmd__help__subcmd__token,publish)
                cmd="mcsctl__subcmd__help__subcmd__token__subcmd__publish"
                ;;
            mcsctl__subcmd__help__subcmd__token,revoke)
                cmd="mcsctl__subcmd__help__subcmd__token__subcmd__revoke"
                ;;
            mcsctl__subcmd__help__subcmd__token,rotate)
                cmd="mcsctl__subcmd__help__subcmd__token__subcmd__rotate"
                ;;
            mcsctl__subcmd__ledger,help)
                cmd="mcsctl__subcmd__ledger__subcmd__help"
                ;;
            mcsctl__subcmd__ledger,import)
                cmd="mcsctl__subcmd__ledger__subcmd__import"
                ;;
            mcsctl__subcmd__ledger__subcmd__help,help)
                cmd="mcsctl__subcmd__ledger__subcmd__help__subcmd__help"
                ;;
            mcsctl__subcmd__ledger__subcmd__help,import)
                cmd="mcsctl__subcmd__ledger__subcmd__help__subcmd__import"
                ;;
            mcsctl__subcmd__machine,add)
                cmd="mcsctl__subcmd__machine__subcmd__add"
                ;;
            mcsctl__subcmd__machine,help)
                cmd="mcsctl__subcmd__machine__subcmd__help"
                ;;
            mcsctl__subcmd__machine,list)
                cmd="mcsctl__subcmd__machine__subcmd__list"
                ;;
            mcsctl__subcmd__machine,remove)
                cmd="mcsctl__subcmd__machine__subcmd__remove"
                ;;
            mcsctl__subcmd__machine,watch)
                cmd="mcsctl__subcmd__machine__subcmd__watch"
                ;;
            mcsctl__subcmd__machine__subcmd__help,add)
                cmd="mcsctl__subcmd__machine__subcmd__help__subcmd__add"
                ;;
            mcsctl__subcmd__machine__subcmd__help,help)
                cmd="mcsctl__subcmd__machine__subcmd__help__subcmd__help"
                ;;
            mcsctl__subcmd__machine__subcmd__help,list)
                cmd="mcsctl__subcmd__machine__subcmd__help__subcmd__list"
                ;;
            mcsctl__subcmd__machine__subcmd__help,remove)
                cmd="mcsctl__subcmd__machine__subcmd__help__subcmd__remove"
                ;;
            mcsctl__subcmd__machine__subcmd__help,watch)
                cmd="mcsctl__subcmd__machine__subcmd__help__subcmd__watch"
                ;;
            mcsctl__subcmd__token,create)
                cmd="mcsctl__subcmd__token__subcmd__create"
                ;;
            mcsctl__subcmd__token,help)
                cmd="mcsctl__subcmd__token__subcmd__help"
                ;;
            mcsctl__subcmd__token,list)
                cmd="mcsctl__subcmd__token__subcmd__list"
                ;;
            mcsctl__subcmd__token,prune)
                cmd="mcsctl__subcmd__token__subcmd__prune"
                ;;
            mcsctl__subcmd__token,publish)
                cmd="mcsctl__subcmd__token__subcmd__publish"
                ;;
            mcsctl__subcmd__token,revoke)
                cmd="mcsctl__subcmd__token__subcmd__revoke"
                ;;
            mcsctl__subcmd__token,rotate)
                cmd="mcsctl__subcmd__token__subcmd__rotate"
                ;;
            mcsctl__subcmd__token__subcmd__help,create)
                cmd="mcsctl__subcmd__token__subcmd__help__subcmd__create"
                ;;
            mcsctl__subcmd__token__subcmd__help,help)
                cmd="mcsctl__subcmd__token__subcmd__help__subcmd__help"
                ;;
            mcsctl__subcmd__token__subcmd__help,list)
                cmd="mcsctl__subcmd__token__subcmd__help__subcmd__list"
                ;;
            mcsctl__subcmd__token__subcmd__help,prune)
                cmd="mcsctl__subcmd__token__subcmd__help__subcmd__prune"
                ;;
            mcsctl__subcmd__token__subcmd__help,publish)
                cmd="mcsctl__subcmd__token__subcmd__help__subcmd__publish"
                ;;
            mcsctl__subcmd__token__subcmd__help,revoke)
                cmd="mcsctl__subcmd__token__subcmd__help__subcmd__revoke"
                ;;
            mcsctl__subcmd__token__subcmd__help,rotate)
                cmd="mcsctl__subcmd__token__subcmd__help__subcmd__rotate"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        mcsctl)
            opts="-o -q -v -h -V --dir --format --quiet --verbose --non-interactive --dry-run --max-input-size --help --version init ca cert pointer token machine inspect render serve doctor csr manifests ledger completions man version help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__ca)
            opts="-q -v -h -V --quiet --verbose --non-interactive --dry-run --max-input-size --help --version create import rotate promote retire help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__ca__subcmd__create)
            opts="-y -o -q -v -h -V --key-algorithm --validity --force --yes --dir --format --quiet --verbose --non-interactive --dry-run --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --key-algorithm)
                    COMPREPLY=($(compgen -W "ecdsa-p256 ecdsa-p384 ed25519 rsa-2048 rsa-3072 rsa-4096" -- "${cur}"))
                    return 0
                    ;;
                --validity)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__ca__subcmd__help)
            opts="create import rotate promote retire help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__ca__subcmd__help__subcmd__create)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__ca__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__ca__subcmd__help__subcmd__import)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__ca__subcmd__help__subcmd__promote)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__ca__subcmd__help__subcmd__retire)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__ca__subcmd__help__subcmd__rotate)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__ca__subcmd__import)
            opts="-y -o -q -v -h -V --cert --key --bundle --force --yes --dir --format --quiet --verbose --non-interactive --dry-run --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --cert)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --bundle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__ca__subcmd__promote)
            opts="-o -q -v -h -V --validity --force --dir --format --quiet --verbose --non-interactive --dry-run --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --validity)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__ca__subcmd__retire)
            opts="-o -q -v -h -V --purge --dir --format --quiet --verbose --non-interactive --dry-run --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__ca__subcmd__rotate)
            opts="-o -q -v -h -V --key-algorithm --validity --cert --key --dir --format --quiet --verbose --non-interactive --dry-run --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --key-algorithm)
                    COMPREPLY=($(compgen -W "ecdsa-p256 ecdsa-p384 ed25519 rsa-2048 rsa-3072 rsa-4096" -- "${cur}"))
                    return 0
                    ;;
                --validity)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cert)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__cert)
            opts="-q -v -h -V --quiet --verbose --non-interactive --dry-run --max-input-size --help --version issue renew help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__cert__subcmd__help)
            opts="issue renew help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__cert__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__cert__subcmd__help__subcmd__issue)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__cert__subcmd__help__subcmd__renew)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__cert__subcmd__issue)
            opts="-o -q -v -h -V --san --replace-sans --key-algorithm --validity --force --dir --format --quiet --verbose --non-interactive --dry-run --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --san)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --key-algorithm)
                    COMPREPLY=($(compgen -W "ecdsa-p256 ecdsa-p384 ed25519 rsa-2048 rsa-3072 rsa-4096" -- "${cur}"))
                    return 0
                    ;;
                --validity)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__cert__subcmd__renew)
            opts="-o -q -v -h -V --key-algorithm --validity --dir --format --quiet --verbose --non-interactive --dry-run --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --key-algorithm)
                    COMPREPLY=($(compgen -W "ecdsa-p256 ecdsa-p384 ed25519 rsa-2048 rsa-3072 rsa-4096" -- "${cur}"))
                    return 0
                    ;;
                --validity)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__completions)
            opts="-q -v -h -V --quiet --verbose --non-interactive --dry-run --max-input-size --help --version bash elvish fish powershell zsh"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__csr)
            opts="-q -v -h -V --quiet --verbose --non-interactive --dry-run --max-input-size --help --version review sign help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__csr__subcmd__help)
            opts="review sign help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__csr__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__csr__subcmd__help__subcmd__review)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__csr__subcmd__help__subcmd__sign)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__csr__subcmd__review)
            opts="-o -q -v -h -V --csrs --machines --nodes --inventory --now --kubelet-ca --serving-certs --fetch-serving-certs --fetch-timeout --network-type --host-subnets --approver-config --approve-names --evidence --window --clock-skew --ledger --store --store-ca --store-cert --store-key --store-prefix --store-insecure --dir --format --quiet --verbose --non-interactive --dry-run --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --csrs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --machines)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --nodes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --inventory)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --now)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubelet-ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --serving-certs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --fetch-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --network-type)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host-subnets)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --approver-config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --window)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --clock-skew)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ledger)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-cert)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-prefix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__csr__subcmd__sign)
            opts="-q -v -h -V --csr --ca-cert --ca-key --address --validity --output --force --dir --quiet --verbose --non-interactive --dry-run --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --csr)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ca-cert)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ca-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --address)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --validity)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__doctor)
            opts="-o -q -v -h -V --resolve --ignition-spec --timeout --fetch --dir --format --quiet --verbose --non-interactive --dry-run --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --resolve)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ignition-spec)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help)
            opts="init ca cert pointer token machine inspect render serve doctor csr manifests ledger completions man version help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__ca)
            opts="create import rotate promote retire"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__ca__subcmd__create)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__ca__subcmd__import)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__ca__subcmd__promote)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__ca__subcmd__retire)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__ca__subcmd__rotate)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__cert)
            opts="issue renew"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__cert__subcmd__issue)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__cert__subcmd__renew)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__completions)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__csr)
            opts="review sign"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__csr__subcmd__review)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__csr__subcmd__sign)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__doctor)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__init)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__inspect)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__ledger)
            opts="import"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__ledger__subcmd__import)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__machine)
            opts="add list remove watch"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__machine__subcmd__add)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__machine__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__machine__subcmd__remove)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__machine__subcmd__watch)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__man)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__manifests)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__pointer)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__render)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__serve)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__token)
            opts="create rotate list revoke prune publish"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__token__subcmd__create)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__token__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__token__subcmd__prune)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__token__subcmd__publish)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__token__subcmd__revoke)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__token__subcmd__rotate)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__help__subcmd__version)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__init)
            opts="-y -o -q -v -h -V --cluster-name --base-domain --url --san --pool --ca-cert --ca-key --key-algorithm --ca-validity --cert-validity --no-token --token-transport --spec-version --for --force --yes --dir --format --quiet --verbose --non-interactive --dry-run --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --cluster-name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --base-domain)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --san)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pool)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ca-cert)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ca-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --key-algorithm)
                    COMPREPLY=($(compgen -W "ecdsa-p256 ecdsa-p384 ed25519 rsa-2048 rsa-3072 rsa-4096" -- "${cur}"))
                    return 0
                    ;;
                --ca-validity)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cert-validity)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --token-transport)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --spec-version)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --for)
                    COMPREPLY=($(compgen -W "openshift coreos" -- "${cur}"))
                    return 0
                    ;;
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__inspect)
            opts="-o -q -v -h -V --remote --server-name --ca --warn-within --ledger --store --store-ca --store-cert --store-key --store-prefix --store-insecure --dir --format --quiet --verbose --non-interactive --dry-run --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --remote)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --server-name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --warn-within)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ledger)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-cert)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-prefix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__ledger)
            opts="-q -v -h -V --quiet --verbose --non-interactive --dry-run --max-input-size --help --version import help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__ledger__subcmd__help)
            opts="import help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__ledger__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__ledger__subcmd__help__subcmd__import)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__ledger__subcmd__import)
            opts="-o -q -v -h -V --ledger --store --store-ca --store-cert --store-key --store-prefix --store-insecure --dir --format --quiet --verbose --non-interactive --dry-run --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --ledger)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-cert)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-prefix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__machine)
            opts="-q -v -h -V --quiet --verbose --non-interactive --dry-run --max-input-size --help --version add list remove watch help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__machine__subcmd__add)
            opts="-o -q -v -h -V --pool --ip --from --ttl --uses --force --new-pool --store --store-ca --store-cert --store-key --store-prefix --store-insecure --dir --format --quiet --verbose --non-interactive --dry-run --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --pool)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ip)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --from)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ttl)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --uses)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-cert)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-prefix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__machine__subcmd__help)
            opts="add list remove watch help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__machine__subcmd__help__subcmd__add)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__machine__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__machine__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__machine__subcmd__help__subcmd__remove)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__machine__subcmd__help__subcmd__watch)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__machine__subcmd__list)
            opts="-o -q -v -h -V --ledger --csrs --nodes --store --store-ca --store-cert --store-key --store-prefix --store-insecure --dir --format --quiet --verbose --non-interactive --dry-run --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --ledger)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --csrs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --nodes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-cert)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-prefix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__machine__subcmd__remove)
            opts="-o -q -v -h -V --store --store-ca --store-cert --store-key --store-prefix --store-insecure --dir --format --quiet --verbose --non-interactive --dry-run --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-cert)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-prefix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__machine__subcmd__watch)
            opts="-o -q -v -h -V --ledger --csrs --nodes --store --store-ca --store-cert --store-key --store-prefix --store-insecure --dir --format --timeout --interval --quiet --verbose --non-interactive --dry-run --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --ledger)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --csrs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --nodes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-cert)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-prefix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --interval)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__man)
            opts="-q -v -h -V --output --quiet --verbose --non-interactive --dry-run --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__manifests)
            opts="-o -q -v -h -V --output --serve-deployment --image --namespace --service-type --host-network --auth --replicas --store --store-ca --store-cert --store-key --store-prefix --store-insecure --include-ca-key --include-root-ca --force --dir --format --quiet --verbose --non-interactive --dry-run --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --image)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --service-type)
                    COMPREPLY=($(compgen -W "NodePort LoadBalancer ClusterIP" -- "${cur}"))
                    return 0
                    ;;
                --auth)
                    COMPREPLY=($(compgen -W "token split none" -- "${cur}"))
                    return 0
                    ;;
                --replicas)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-cert)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-prefix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__pointer)
            opts="-o -q -v -h -V --pool --url --spec-version --token-transport --output --base64 --force --new-pool --dir --format --quiet --verbose --non-interactive --dry-run --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --pool)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --spec-version)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --token-transport)
                    COMPREPLY=($(compgen -W "header query none" -- "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__render)
            opts="-o -q -v -h -V --machine-configs --strict --controller-config --from-cluster --for --bootstrap-kubeconfig --no-bootstrap-kubeconfig --force --report --no-report --spec-version --replace --allow-sensitive --current --allow-irreconcilable --from-mcs --pool --ca --token --dir --format --quiet --verbose --non-interactive --dry-run --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --machine-configs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --controller-config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --from-cluster)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --for)
                    COMPREPLY=($(compgen -W "openshift coreos" -- "${cur}"))
                    return 0
                    ;;
                --bootstrap-kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --spec-version)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --allow-sensitive)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --current)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --allow-irreconcilable)
                    COMPREPLY=($(compgen -W "disks filesystems raid" -- "${cur}"))
                    return 0
                    ;;
                --from-mcs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pool)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --token)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__serve)
            opts="-q -v -h -V --log-format --metrics-listen --ledger --store --store-ca --store-cert --store-key --store-prefix --store-insecure --store-grace --store-lease --max-partial-fetches --listen --insecure-listen --auth --header-timeout --handshake-timeout --write-timeout --min-send-rate --connection-deadline --proxy-protocol-from --max-connections --max-connections-per-client --max-header-bytes --reload-interval --drain-timeout --max-failures --block-for --reload --dir --quiet --verbose --non-interactive --dry-run --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --log-format)
                    COMPREPLY=($(compgen -W "auto json text" -- "${cur}"))
                    return 0
                    ;;
                --metrics-listen)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ledger)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-cert)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-prefix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-grace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-lease)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-partial-fetches)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --listen)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --insecure-listen)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --auth)
                    COMPREPLY=($(compgen -W "token split none" -- "${cur}"))
                    return 0
                    ;;
                --header-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --handshake-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --write-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --min-send-rate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --connection-deadline)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --proxy-protocol-from)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-connections)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-connections-per-client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-header-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --reload-interval)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --drain-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-failures)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --block-for)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__token)
            opts="-q -v -h -V --quiet --verbose --non-interactive --dry-run --max-input-size --help --version create rotate list revoke prune publish help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__token__subcmd__create)
            opts="-o -q -v -h -V --ttl --description --print-pointer --pool --new-pool --store --store-ca --store-cert --store-key --store-prefix --store-insecure --dir --format --quiet --verbose --non-interactive --dry-run --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --ttl)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --description)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pool)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-cert)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-prefix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__token__subcmd__help)
            opts="create rotate list revoke prune publish help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__token__subcmd__help__subcmd__create)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__token__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__token__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__token__subcmd__help__subcmd__prune)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__token__subcmd__help__subcmd__publish)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__token__subcmd__help__subcmd__revoke)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__token__subcmd__help__subcmd__rotate)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__token__subcmd__list)
            opts="-o -q -v -h -V --dir --format --quiet --verbose --non-interactive --dry-run --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__token__subcmd__prune)
            opts="-o -q -v -h -V --store --store-ca --store-cert --store-key --store-prefix --store-insecure --dir --format --quiet --verbose --non-interactive --dry-run --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-cert)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-prefix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__token__subcmd__publish)
            opts="-o -q -v -h -V --store --store-ca --store-cert --store-key --store-prefix --store-insecure --dir --format --quiet --verbose --non-interactive --dry-run --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-cert)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-prefix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__token__subcmd__revoke)
            opts="-o -q -v -h -V --store --store-ca --store-cert --store-key --store-prefix --store-insecure --dir --format --quiet --verbose --non-interactive --dry-run --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-cert)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-prefix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__token__subcmd__rotate)
            opts="-o -q -v -h -V --grace --ttl --description --store --store-ca --store-cert --store-key --store-prefix --store-insecure --dir --format --quiet --verbose --non-interactive --dry-run --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --grace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ttl)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --description)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-cert)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --store-prefix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        mcsctl__subcmd__version)
            opts="-o -q -v -h -V --format --quiet --verbose --non-interactive --dry-run --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --format)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text json yaml" -- "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _mcsctl -o nosort -o bashdefault -o default mcsctl
else
    complete -F _mcsctl -o bashdefault -o default mcsctl
fi
