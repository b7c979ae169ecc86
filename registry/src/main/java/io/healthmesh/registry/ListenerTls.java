package io.healthmesh.registry;

import io.healthmesh.ops.ServerIdentity;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;

import javax.net.ssl.SSLException;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;

import static java.util.Objects.requireNonNull;

/**
 * The TLS identity of the registry's listener: either PEM files (a certificate chain and a PKCS#8 private key,
 * optionally encrypted) or a key store (PKCS12 or JKS). Passwords are held but never printed.
 *
 * @param certificateChain PEM certificate chain, or null when a key store is used
 * @param privateKey PEM PKCS#8 private key, or null when a key store is used
 * @param keyPassword password of an encrypted PEM key or of the key inside the key store; may be null
 * @param keyStore key store file, or null when PEM files are used
 * @param keyStorePassword password of the key store; may be null
 * @param keyStoreType {@code PKCS12} or {@code JKS}
 */
public record ListenerTls(Path certificateChain, Path privateKey, String keyPassword, Path keyStore,
                          String keyStorePassword, String keyStoreType) {

    public ListenerTls {
        requireNonNull(keyStoreType, "keyStoreType");
        ServerIdentity.requireOneForm("registry.ssl", certificateChain, privateKey, keyStore);
    }

    /** PEM certificate chain and private key. */
    public static ListenerTls pem(Path certificateChain, Path privateKey, String keyPassword) {
        return new ListenerTls(certificateChain, privateKey, keyPassword, null, null, "PKCS12");
    }

    /** A key store holding one private key entry. */
    public static ListenerTls keyStore(Path keyStore, String password, String type, String keyPassword) {
        return new ListenerTls(null, null, keyPassword, keyStore, password, type);
    }

    /**
     * Reads the files and builds the server context.
     *
     * @throws IllegalStateException naming the file when it cannot be read or holds no usable key
     */
    SslContext serverContext() {
        try {
            if (keyStore == null) {
                return SslContextBuilder.forServer(certificateChain.toFile(), privateKey.toFile(), keyPassword).build();
            }
            return SslContextBuilder.forServer(ServerIdentity.keyManagers(keyStore, keyStorePassword, keyStoreType,
                    keyPassword)).build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalStateException("registry TLS: cannot use " + (keyStore == null ? certificateChain + " / " + privateKey
                    : keyStore) + ": " + e.getMessage(), e);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("registry TLS: cannot read " + keyStore + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return keyStore == null ? "ListenerTls[pem " + certificateChain + "]" : "ListenerTls[" + keyStoreType + " " + keyStore + "]";
    }
}
