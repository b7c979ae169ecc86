package io.healthmesh.xds;

import io.grpc.ServerCredentials;
import io.grpc.TlsServerCredentials;
import io.healthmesh.ops.ServerIdentity;

import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;

import static java.util.Objects.requireNonNull;

/**
 * The TLS identity of the xDS listener, read like the registry's ({@code registry.ssl.*}): PEM files (a certificate
 * chain and a PKCS#8 key, optionally encrypted) or a key store (PKCS12 or JKS); and, optionally, the PEM
 * certificates of the authorities whose client certificates it requires (mutual TLS: a proxy without a certificate
 * signed by one of them cannot open a stream). Passwords are held but never printed.
 *
 * @param certificateChain PEM certificate chain, or null when a key store is used
 * @param privateKey PEM PKCS#8 private key, or null when a key store is used
 * @param keyPassword password of an encrypted PEM key or of the key in the key store; may be null
 * @param keyStore key store file, or null when PEM files are used
 * @param keyStorePassword password of the key store; may be null
 * @param keyStoreType {@code PKCS12} or {@code JKS}
 * @param clientCa PEM certificates of the authorities client certificates must chain to, or null: no client
 *                 certificate asked for
 */
public record XdsTls(Path certificateChain, Path privateKey, String keyPassword, Path keyStore,
                     String keyStorePassword, String keyStoreType, Path clientCa) {

    public XdsTls {
        requireNonNull(keyStoreType, "keyStoreType");
        ServerIdentity.requireOneForm("xds.ssl", certificateChain, privateKey, keyStore);
    }

    /**
     * The server's credentials, files read now.
     *
     * @throws IllegalStateException naming the file that cannot be used
     */
    ServerCredentials credentials() {
        TlsServerCredentials.Builder tls = TlsServerCredentials.newBuilder();
        try {
            if (keyStore == null) {
                tls.keyManager(certificateChain.toFile(), privateKey.toFile(), keyPassword);
            } else {
                tls.keyManager(ServerIdentity.keyManagers(keyStore, keyStorePassword, keyStoreType, keyPassword)
                        .getKeyManagers());
            }
        } catch (IOException | GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalStateException("xds TLS: cannot use " + (keyStore == null
                    ? certificateChain + " / " + privateKey : keyStore) + ": " + e.getMessage(), e);
        }
        if (clientCa != null) {
            try {
                tls.trustManager(clientCa.toFile()).clientAuth(TlsServerCredentials.ClientAuth.REQUIRE);
            } catch (IOException | IllegalArgumentException e) {
                throw new IllegalStateException("xds TLS: cannot use xds.ssl.client.ca.location " + clientCa + ": "
                        + e.getMessage(), e);
            }
        }
        return tls.build();
    }

    @Override
    public String toString() {
        return (keyStore == null ? "XdsTls[pem " + certificateChain : "XdsTls[" + keyStoreType + " " + keyStore)
                + (clientCa == null ? "" : ", client certificates from " + clientCa) + "]";
    }
}
