/**
 * TLS shared by HTTPS and GRPC over TLS: the client contexts (verification, trust bundles, client keys, ALPN), the
 * material they are built from (named by id in a definition, held by the prober's settings), and the certificate
 * facts a handshake yields (the leaf's and the chain's earliest expiry, the {@code minCertDaysLeft} rule).
 */
package io.healthmesh.probe.tls;
