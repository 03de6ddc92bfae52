#!/bin/sh
# Regenerates the TLS fixtures of KubeconfigClientCertificateTest (valid for 100 years):
# a CA, a server certificate for 127.0.0.1 in server.p12 (password "changeit"), and client
# certificates whose keys are written in every form a kubeconfig may hold.
set -eu
cd "$(dirname "$0")"
days=36500
openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days $days -subj /CN=test-ca
sign() { # name subject extensions
  openssl req -new -key "$1.key" -out "$1.csr" -subj "$2"
  printf '%s\n' "$3" > "$1.ext"
  openssl x509 -req -in "$1.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -days $days \
    -extfile "$1.ext" -out "$1.crt"
  rm "$1.csr" "$1.ext"
}
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out server.key
sign server /CN=127.0.0.1 "subjectAltName=IP:127.0.0.1,DNS:localhost"
openssl pkcs12 -export -in server.crt -inkey server.key -name server -passout pass:changeit \
  -out server.p12
rm server.key server.crt
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out client-rsa.key
sign client-rsa /CN=trainer-rsa "extendedKeyUsage=clientAuth"
openssl pkey -in client-rsa.key -out client-rsa-pkcs8.key
openssl rsa -in client-rsa.key -traditional -out client-rsa-pkcs1.key
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out client-ec.key
sign client-ec /CN=trainer-ec "extendedKeyUsage=clientAuth"
openssl pkey -in client-ec.key -out client-ec-pkcs8.key
openssl ec -in client-ec.key -out client-ec-sec1.key
rm client-rsa.key client-ec.key ca.key ca.srl
