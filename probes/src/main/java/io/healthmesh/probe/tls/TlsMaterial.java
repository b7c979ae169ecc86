package io.healthmesh.probe.tls;

import io.netty.handler.ssl.SslContextBuilder;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * The trust bundles and client keys a prober holds, by id: what a definition's {@code tls.trustId} and
 * {@code tls.clientKeyId} name. Read from files once, when the prober starts, and checked there (a file that does not
 * parse stops the start with the id and the path, never the file's content); probes only parse bytes already in
 * memory. The bytes of a key never leave this class except into a TLS context.
 */
public final class TlsMaterial {

    /** No trust bundle and no client key: definitions that name one fail their probe with a clear detail. */
    public static final TlsMaterial NONE = new TlsMaterial(Map.of(), Map.of());

    /** A client certificate chain and its private key, PEM. */
    record ClientKey(byte[] certificateChain, byte[] privateKey) {
    }

    private final Map<String, byte[]> trustBundles;
    private final Map<String, ClientKey> clientKeys;

    private TlsMaterial(Map<String, byte[]> trustBundles, Map<String, ClientKey> clientKeys) {
        this.trustBundles = Map.copyOf(trustBundles);
        this.clientKeys = Map.copyOf(clientKeys);
    }

    /**
     * Reads and checks every file.
     *
     * @param trustBundles id to a PEM file of CA certificates
     * @param clientCertificates id to a PEM file of the client's certificate chain
     * @param clientKeys id to a PEM file of the client's PKCS#8 private key; the same ids as {@code clientCertificates}
     * @throws IllegalArgumentException naming the id and the path of a file that is missing or does not parse, or an
     *                                  id with a certificate and no key (or the reverse)
     */
    public static TlsMaterial load(Map<String, Path> trustBundles, Map<String, Path> clientCertificates,
                                   Map<String, Path> clientKeys) {
        requireNonNull(trustBundles, "trustBundles");
        if (!clientCertificates.keySet().equals(clientKeys.keySet())) {
            throw new IllegalArgumentException("tls client keys: every id needs both a certificate and a key (ids with"
                    + " a certificate: " + new TreeMap<>(clientCertificates).keySet() + ", with a key: "
                    + new TreeMap<>(clientKeys).keySet() + ")");
        }
        Map<String, byte[]> bundles = new TreeMap<>();
        trustBundles.forEach((id, path) -> {
            byte[] pem = read("trust bundle", id, path);
            try {
                SslContextBuilder.forClient().trustManager(new ByteArrayInputStream(pem)).build();
            } catch (IOException | IllegalArgumentException e) {
                throw new IllegalArgumentException("tls trust bundle " + id + " (" + path
                        + "): not a PEM file of certificates", e);
            }
            bundles.put(id, pem);
        });
        Map<String, ClientKey> keys = new TreeMap<>();
        clientCertificates.forEach((id, certificatePath) -> {
            Path keyPath = clientKeys.get(id);
            ClientKey key = new ClientKey(read("client certificate", id, certificatePath),
                    read("client key", id, keyPath));
            try {
                SslContextBuilder.forClient().keyManager(new ByteArrayInputStream(key.certificateChain()),
                        new ByteArrayInputStream(key.privateKey())).build();
            } catch (IOException | IllegalArgumentException e) {
                // the cause's message may quote the file: only the id and the paths are said
                throw new IllegalArgumentException("tls client key " + id + " (" + certificatePath + ", " + keyPath
                        + "): not a PEM certificate chain and an unencrypted PKCS#8 key that belong together");
            }
            keys.put(id, key);
        });
        return new TlsMaterial(bundles, keys);
    }

    private static byte[] read(String what, String id, Path path) {
        try {
            return Files.readAllBytes(path);
        } catch (IOException e) {
            throw new IllegalArgumentException("tls " + what + " " + id + ": cannot read " + path + " ("
                    + e.getClass().getSimpleName() + ")");
        }
    }

    byte[] trustBundle(String id) {
        return trustBundles.get(id);
    }

    ClientKey clientKey(String id) {
        return clientKeys.get(id);
    }

    /** The ids of the trust bundles, sorted: for the prober's start-up log. */
    public java.util.Set<String> trustIds() {
        return new java.util.TreeSet<>(trustBundles.keySet());
    }

    /** The ids of the client keys, sorted: for the prober's start-up log (never the keys). */
    public java.util.Set<String> clientKeyIds() {
        return new java.util.TreeSet<>(clientKeys.keySet());
    }

    @Override
    public String toString() {
        return "TlsMaterial[trust=" + trustIds() + ", clientKeys=" + clientKeyIds() + "]";
    }
}
