package io.healthmesh.dnsfollow.mapping;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a TSIG secret from its file: either the bare base64 secret on one line, or a {@code key} clause as
 * {@code tsig-keygen} prints it and named.conf includes it (then its {@code secret} is taken and its
 * {@code algorithm}, when given, must agree with the mapping's). The secret's text never appears in an error.
 */
final class SecretFile {

    static final int MAX_BYTES = 64 * 1024;
    private static final Pattern SECRET = Pattern.compile("secret\\s+\"([^\"]*)\"\\s*;");
    private static final Pattern ALGORITHM = Pattern.compile("algorithm\\s+\"?([A-Za-z0-9.-]+)\"?\\s*;");

    private SecretFile() {
    }

    /**
     * The secret's bytes.
     *
     * @param at where the problem is reported, e.g. {@code keys[0].secretFile}
     * @throws IllegalArgumentException in the form {@code at: file (expected: ...)}, without the file's content
     */
    static byte[] read(Path file, String algorithm, String at) {
        String text;
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new IllegalArgumentException(at + ": " + file + " (expected: a secret file of at most "
                        + MAX_BYTES + " bytes)");
            }
            text = Files.readString(file, StandardCharsets.UTF_8).trim();
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(at + ": " + file + " (expected: an existing file holding the secret)");
        } catch (IOException e) {
            throw new IllegalArgumentException(at + ": " + file + " cannot be read (" + e.getClass().getSimpleName()
                    + ")");
        }
        String base64 = text;
        Matcher secret = SECRET.matcher(text);
        if (secret.find()) {
            base64 = secret.group(1).trim();
            Matcher declared = ALGORITHM.matcher(text);
            if (declared.find() && !declared.group(1).equalsIgnoreCase(algorithm)) {
                throw new IllegalArgumentException(at + ": " + file + " declares algorithm " + declared.group(1)
                        + " (expected: " + algorithm + ", the key's algorithm in the mapping)");
            }
        }
        byte[] bytes;
        try {
            bytes = Base64.getMimeDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            bytes = new byte[0];
        }
        if (bytes.length == 0 || !base64.matches("[A-Za-z0-9+/=\\s]+")) {
            throw new IllegalArgumentException(at + ": " + file + " (expected: a base64 secret, or a key clause as"
                    + " tsig-keygen prints it)");
        }
        return bytes;
    }
}
