package io.healthmesh.dnsfollow.mapping;

import java.nio.file.Path;
import java.util.Arrays;

import static java.util.Objects.requireNonNull;

/**
 * A TSIG key the updates are signed with: its name and algorithm as the server's {@code key} clause declares them,
 * and the shared secret read from {@code secretFile}. The secret never appears in {@link #toString()}, logs or
 * metrics.
 *
 * @param name the key's name, absolute (with the trailing dot), lower case
 * @param algorithm e.g. {@code hmac-sha256}
 * @param secretFile where the secret was read from
 */
public record TsigKey(String name, String algorithm, Path secretFile, byte[] secret) {

    public TsigKey {
        requireNonNull(name, "name");
        requireNonNull(algorithm, "algorithm");
        requireNonNull(secretFile, "secretFile");
        secret = requireNonNull(secret, "secret").clone();
    }

    /** A copy of the secret's bytes. */
    @Override
    public byte[] secret() {
        return secret.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TsigKey k && k.name.equals(name) && k.algorithm.equals(algorithm)
                && k.secretFile.equals(secretFile) && Arrays.equals(k.secret, secret);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + algorithm.hashCode();
    }

    @Override
    public String toString() {
        return "TsigKey[" + name + ", " + algorithm + ", secret from " + secretFile + "]";
    }
}
