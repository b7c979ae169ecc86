package io.healthmesh.ops;

import javax.net.ssl.KeyManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;

/**
 * The TLS identity of a role's listener (the registry's, the xDS server's), given the same way by each
 * ({@code <prefix>.certificate.location} and {@code .key.location}, or {@code .keystore.location}): the rule that
 * exactly one form is given, and the key store read into key managers. Each listener builds its own TLS context
 * (Netty's, gRPC's) from them.
 */
public final class ServerIdentity {

    private ServerIdentity() {
    }

    /**
     * Checks that the identity is PEM files (both of them) or a key store, not both and not neither.
     *
     * @param prefix the settings' prefix, for the message ({@code registry.ssl})
     * @throws IllegalArgumentException naming the settings when it is not so
     */
    public static void requireOneForm(String prefix, Path certificateChain, Path privateKey, Path keyStore) {
        boolean pem = certificateChain != null || privateKey != null;
        if (pem && keyStore != null) {
            throw new IllegalArgumentException(prefix + ": both PEM files and a key store (expected: one of them)");
        }
        if (pem && (certificateChain == null || privateKey == null)) {
            throw new IllegalArgumentException(prefix + ".certificate.location and " + prefix + ".key.location: "
                    + "only one given (expected: both)");
        }
        if (!pem && keyStore == null) {
            throw new IllegalArgumentException(prefix + ": no identity (expected: PEM files or a key store)");
        }
    }

    /**
     * The key managers of a key store holding one private key entry.
     *
     * @param keyPassword the key's password; null: the store's
     */
    public static KeyManagerFactory keyManagers(Path keyStore, String storePassword, String type, String keyPassword)
            throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance(type);
        char[] password = storePassword == null ? null : storePassword.toCharArray();
        try (InputStream in = Files.newInputStream(keyStore)) {
            store.load(in, password);
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, keyPassword != null ? keyPassword.toCharArray() : password);
        return keys;
    }
}
