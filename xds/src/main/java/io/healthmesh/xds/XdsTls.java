package io.healthmesh.xds;

import io.grpc.ServerCredentials;
import io.grpc.TlsServerCredentials;

import javax.net.ssl.KeyManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;

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
        boolean pem = certificateChain != null || privateKey != null;
        if (pem && keyStore != null) {
            throw new IllegalArgumentException("xds.ssl: both PEM files and a key store (expected: one of them)");
        }
        if (pem && (certificateChain == null || privateKey == null)) {
            throw new IllegalArgumentException("xds.ssl.certificate.location and xds.ssl.key.location: only one given "
                    + "(expected: both)");
        }
        if (!pem && keyStore == null) {
            throw new IllegalArgumentException("xds.ssl: no identity (expected: PEM files or a key store)");
        }
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
                KeyStore store = KeyStore.getInstance(keyStoreType);
                char[] storePassword = keyStorePassword == null ? null : keyStorePassword.toCharArray();
                try (InputStream in = Files.newInputStream(keyStore)) {
                    store.load(in, storePassword);
                }
                KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keys.init(store, keyPassword != null ? keyPassword.toCharArray() : storePassword);
                tls.keyManager(keys.getKeyManagers());
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
