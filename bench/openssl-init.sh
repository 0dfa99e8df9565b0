#!/usr/bin/env bash
# The peer of `mcsctl init` in bench/cli.sh: the openssl commands a user would otherwise type to
# make the same assets (CA, serving certificate with SAN, a 32-byte token, pointer configs).
# Usage: bench/openssl-init.sh ec|rsa DIR
set -euo pipefail
alg=$1
d=$2
mkdir -p "$d/tls" "$d/auth"
cd "$d"
case $alg in
  ec) keyopt=(-algorithm EC -pkeyopt ec_paramgen_curve:P-256) ;;
  rsa) keyopt=(-algorithm RSA -pkeyopt rsa_keygen_bits:2048) ;;
  *) echo "usage: $0 ec|rsa DIR" >&2; exit 2 ;;
esac
umask 077
openssl genpkey "${keyopt[@]}" -out tls/mcs-ca.key 2>/dev/null
openssl req -x509 -new -key tls/mcs-ca.key -subj "/OU=openshift/CN=root-ca" -days 3650 \
  -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign \
  -out tls/mcs-ca.crt
cp tls/mcs-ca.crt tls/mcs-ca-bundle.crt
openssl genpkey "${keyopt[@]}" -out tls/mcs.key 2>/dev/null
openssl req -new -key tls/mcs.key -subj "/CN=system:machine-config-server" -out tls/mcs.csr
cat > tls/ext.cnf <<'EXT'
subjectAltName=DNS:api-int.demo.example.com
extendedKeyUsage=serverAuth
keyUsage=critical,digitalSignature
basicConstraints=critical,CA:FALSE
authorityKeyIdentifier=keyid
subjectKeyIdentifier=hash
EXT
openssl x509 -req -in tls/mcs.csr -CA tls/mcs-ca.crt -CAkey tls/mcs-ca.key -CAcreateserial \
  -days 3650 -extfile tls/ext.cnf -out tls/mcs.crt 2>/dev/null
id=$(openssl rand -hex 3)
secret=$(openssl rand -base64 32 | tr '+/' '-_' | tr -d '=')
printf '{"tokens":[{"id":"%s","secret":"%s"}]}\n' "$id" "$secret" > auth/tokens.json
ca64=$(base64 -w0 tls/mcs-ca.crt)
for pool in worker master; do
  printf '{"ignition":{"config":{"merge":[{"httpHeaders":[{"name":"Authorization","value":"Bearer %s.%s"}],"source":"https://api-int.demo.example.com:22623/config/%s"}]},"security":{"tls":{"certificateAuthorities":[{"source":"data:text/plain;charset=utf-8;base64,%s"}]}},"version":"3.2.0"}}\n' \
    "$id" "$secret" "$pool" "$ca64" > "$pool.ign"
done
