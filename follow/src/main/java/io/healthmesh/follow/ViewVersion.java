package io.healthmesh.follow;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The version of a {@link GroupView}: the first 16 bytes of a SHA-256 over the view's fields, each length-prefixed
 * so that no two different views share an encoding. It depends on the content only.
 */
final class ViewVersion {

    private ViewVersion() {
    }

    static String of(String groupId, boolean failOpen, List<Member> members, boolean keptLastServed) {
        MessageDigest sha = sha256();
        put(sha, groupId);
        sha.update((byte) (failOpen ? 1 : 0));
        sha.update((byte) (keptLastServed ? 1 : 0));
        put(sha, Integer.toString(members.size()));
        for (Member m : members) {
            put(sha, m.targetId());
            put(sha, m.address());
            put(sha, Integer.toString(m.port()));
            put(sha, Integer.toString(m.weight()));
            put(sha, m.region() == null ? "" : "r" + m.region());
            Map<String, String> labels = new TreeMap<>(m.labels());
            put(sha, Integer.toString(labels.size()));
            labels.forEach((k, v) -> {
                put(sha, k);
                put(sha, v);
            });
            put(sha, m.status().name());
            sha.update((byte) (m.served() ? 1 : 0));
            sha.update((byte) (m.draining() ? 1 : 0));
        }
        byte[] digest = sha.digest();
        return HexFormat.of().formatHex(digest, 0, 16);
    }

    private static void put(MessageDigest sha, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        int n = bytes.length;
        sha.update(new byte[] {(byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n});
        sha.update(bytes);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
