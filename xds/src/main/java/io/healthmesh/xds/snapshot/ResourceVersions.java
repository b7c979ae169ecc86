package io.healthmesh.xds.snapshot;

import com.google.protobuf.Message;
import io.envoyproxy.controlplane.cache.ResourceVersionResolver;
import io.envoyproxy.controlplane.cache.VersionedResource;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Versions that depend on what is served and nothing else, so that two replicas that have read the same state send
 * the same versions and a client that moves between them is sent nothing new.
 * <ul>
 *   <li>a resource's version: the SHA-256 of its serialized bytes (the resources carry no map field, so their
 *       serialization is the same in every JVM). java-control-plane's own default hashes an identity hash code,
 *       which differs between processes;</li>
 *   <li>a set's version (what state-of-the-world responses carry): the SHA-256 of the sorted
 *       {@code name=version} pairs of the resources asked for, or of all of them for a wildcard request. A client
 *       that asks for some clusters is answered again only when one of those changed.</li>
 * </ul>
 */
public final class ResourceVersions {

    /** Hex digits kept of a digest: 128 bits. */
    private static final int DIGITS = 32;

    private ResourceVersions() {
    }

    /** The resource with its content version. */
    public static <T extends Message> VersionedResource<T> versioned(T resource) {
        return VersionedResource.create(resource, hash(resource.toByteArray()));
    }

    /** The version of a set of named resources (absent names count as absent, so adding one changes it). */
    public static String ofSet(Map<String, ? extends VersionedResource<?>> resources, Iterable<String> names) {
        MessageDigest digest = sha256();
        for (String name : names) {
            VersionedResource<?> r = resources.get(name);
            digest.update(name.getBytes(StandardCharsets.UTF_8));
            digest.update((byte) '=');
            digest.update((r == null ? "-" : r.version()).getBytes(StandardCharsets.UTF_8));
            digest.update((byte) '\n');
        }
        return HexFormat.of().formatHex(digest.digest()).substring(0, DIGITS);
    }

    /**
     * The resolver java-control-plane asks for the version of a request: all resources when it names none, else
     * the named ones in sorted order.
     */
    public static ResourceVersionResolver resolver(Map<String, ? extends VersionedResource<?>> resources) {
        String all = ofSet(resources, new TreeSet<>(resources.keySet()));
        return new ResourceVersionResolver() {
            @Override
            public String version(List<String> names) {
                return names.isEmpty() ? all : ofSet(resources, new TreeSet<>(names));
            }
        };
    }

    static String hash(byte[] bytes) {
        return HexFormat.of().formatHex(sha256().digest(bytes)).substring(0, DIGITS);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
