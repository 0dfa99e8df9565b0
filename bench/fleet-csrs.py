#!/usr/bin/env python3
"""Writes the CSRs of a fleet half way through its install, two per machine w<i> of COUNT:

- odd machines have joined: their client CSR (kube-apiserver-client-kubelet, made with the
  bootstrap credentials after the fetch) was approved, their Node exists (NODES.json), and their serving CSR
  (kubelet-serving, naming the machine and its address 10.<i+1>) is pending, created at CREATED;
- even machines are booting: a client CSR from an earlier boot, two hours before CREATED, is
  still pending (too old to count toward the approver's limit, made before any fetch), and a
  new one is pending, created at CREATED.

So COUNT of the 2 COUNT CSRs are pending and due: a right review approves exactly those.

Usage: fleet-csrs.py COUNT CREATED OUT.json NODES.json

One P-256 key signs them all (the review checks each CSR's own signature either way).
"""
import base64
import datetime
import ipaddress
import json
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

count, created, out, nodes_out = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
earlier = (datetime.datetime.strptime(created, "%Y-%m-%dT%H:%M:%SZ")
           - datetime.timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M:%SZ")
key = ec.generate_private_key(ec.SECP256R1())
bootstrap = "system:serviceaccount:openshift-machine-config-operator:node-bootstrapper"


def address(i):
    return str(ipaddress.IPv4Address(0x0A000000 + i + 1))


def pem(cn, sans):
    b = x509.CertificateSigningRequestBuilder().subject_name(
        x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "system:nodes"),
                   x509.NameAttribute(NameOID.COMMON_NAME, cn)]))
    if sans:
        b = b.add_extension(x509.SubjectAlternativeName(sans), critical=False)
    csr = b.sign(key, hashes.SHA256())
    return base64.b64encode(csr.public_bytes(serialization.Encoding.PEM)).decode()


def client(name, node, at, approved):
    status = {"conditions": [{"type": "Approved", "status": "True", "reason": "NodeCSRApprove"}],
              "certificate": base64.b64encode(b"issued").decode()} if approved else {}
    return {
        "apiVersion": "certificates.k8s.io/v1", "kind": "CertificateSigningRequest",
        "metadata": {"name": name, "creationTimestamp": at},
        "spec": {"request": pem(f"system:node:{node}", None),
                 "signerName": "kubernetes.io/kube-apiserver-client-kubelet", "username": bootstrap,
                 "groups": ["system:serviceaccounts:openshift-machine-config-operator",
                            "system:serviceaccounts", "system:authenticated"],
                 "usages": ["digital signature", "client auth"]},
        "status": status,
    }


items = []
for i in range(count):
    node = f"w{i}"
    if i % 2:
        items.append(client(f"csr-client-{i}", node, created, True))
        sans = [x509.DNSName(node), x509.IPAddress(ipaddress.IPv4Address(address(i)))]
        items.append({
            "apiVersion": "certificates.k8s.io/v1", "kind": "CertificateSigningRequest",
            "metadata": {"name": f"csr-serving-{i}", "creationTimestamp": created},
            "spec": {"request": pem(f"system:node:{node}", sans),
                     "signerName": "kubernetes.io/kubelet-serving", "username": f"system:node:{node}",
                     "groups": ["system:nodes", "system:authenticated"],
                     "usages": ["digital signature", "server auth"]},
            "status": {},
        })
    else:
        items.append(client(f"csr-earlier-{i}", node, earlier, False))
        items.append(client(f"csr-client-{i}", node, created, False))
with open(out, "w") as f:
    json.dump({"apiVersion": "v1", "kind": "List", "items": items}, f)
nodes = [{"apiVersion": "v1", "kind": "Node", "metadata": {"name": f"w{i}"},
          "status": {"addresses": [{"type": "InternalIP", "address": address(i)},
                                   {"type": "Hostname", "address": f"w{i}"}],
                     "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}}}}
         for i in range(1, count, 2)]
with open(nodes_out, "w") as f:
    json.dump({"apiVersion": "v1", "kind": "List", "items": nodes}, f)
