package io.healthmesh.haproxy.mapping;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * HAProxy server names from target ids. HAProxy accepts letters, digits, {@code - _ . :} in a server name; a name
 * here is also at most {@link #MAX_LENGTH} characters. The template's {@code {id}} is replaced by the target id with
 * every other character turned into {@code _}; when that changed the id or the name is too long, the (cut) name gets
 * {@code -} and 8 hex digits of the id's SHA-256, so that two ids differing only in refused characters still get two
 * names, and every driver derives the same name from the same id whatever else it has read.
 */
public final class ServerNames {

    /** The placeholder of the target id in a template. */
    public static final String ID = "{id}";
    public static final int MAX_LENGTH = 64;
    /** Room the template's own text may take, so that an id always keeps some characters. */
    public static final int MAX_TEMPLATE_TEXT = 32;
    static final Pattern ALLOWED = Pattern.compile("[A-Za-z0-9_.:-]*");
    private static final Pattern REFUSED = Pattern.compile("[^A-Za-z0-9_.:-]");
    private static final int HASH_CHARS = 8;

    private ServerNames() {
    }

    /** Whether a template is usable: {@code {id}} once, otherwise only allowed characters, not too long. */
    static boolean validTemplate(String template) {
        int at = template.indexOf(ID);
        if (at < 0 || template.indexOf(ID, at + 1) >= 0) {
            return false;
        }
        String text = template.replace(ID, "");
        return text.length() <= MAX_TEMPLATE_TEXT && ALLOWED.matcher(text).matches();
    }

    /** The server name of a target under a (valid) template. */
    public static String name(String template, String targetId) {
        String cleaned = REFUSED.matcher(targetId).replaceAll("_");
        String name = template.replace(ID, cleaned);
        if (cleaned.equals(targetId) && name.length() <= MAX_LENGTH) {
            return name;
        }
        String suffix = "-" + hash(targetId);
        int room = MAX_LENGTH - suffix.length() - (template.length() - ID.length());
        String cut = cleaned.length() > room ? cleaned.substring(0, room) : cleaned;
        return template.replace(ID, cut) + suffix;
    }

    private static String hash(String targetId) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(targetId.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest).substring(0, HASH_CHARS);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JRE", e);
        }
    }
}
