package io.healthmesh.prober;

import io.healthmesh.ops.Setting;
import io.healthmesh.ops.SettingsReader;
import io.healthmesh.probe.tls.TlsMaterial;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * The TLS material a prober holds for HTTPS and GRPC-over-TLS definitions, by id: trust bundles
 * ({@code tls.trust.bundles}) and client certificates with their keys for mTLS ({@code tls.client.certificates},
 * {@code tls.client.keys}). A definition names an id, never a path or a key; the files are read once at start
 * ({@link #material()}), and a key's content is never logged or published.
 *
 * @param trustBundles id to a PEM file of CA certificates
 * @param clientCertificates id to a PEM file of a client certificate chain
 * @param clientKeys id to a PEM file of the matching unencrypted PKCS#8 private key
 */
public record ProberTls(Map<String, Path> trustBundles, Map<String, Path> clientCertificates,
                        Map<String, Path> clientKeys) {

    private static final Pattern ENTRY = Pattern.compile("([A-Za-z0-9._-]{1,64})\\s*=\\s*(\\S.*)");
    private static final String FORMAT = "comma-separated id=path, ids 1-64 of [A-Za-z0-9._-]; empty = none";

    static final Setting<String> TRUST_BUNDLES = Setting.text("tls.trust.bundles", "", FORMAT,
            "PEM files of CA certificates that a definition's tls.trustId names (its verification then trusts these"
                    + " instead of the JDK's default store); read at start.");
    static final Setting<String> CLIENT_CERTIFICATES = Setting.text("tls.client.certificates", "", FORMAT,
            "PEM certificate chains that a definition's tls.clientKeyId names, presented to servers that ask for a"
                    + " client certificate (mTLS); each id also needs tls.client.keys.");
    static final Setting<String> CLIENT_KEYS = Setting.text("tls.client.keys", "", FORMAT,
            "PEM files of the unencrypted PKCS#8 private keys of tls.client.certificates, by the same ids; read at"
                    + " start, never logged (keep them readable by the prober's user only).");

    /** The settings this record reads, for {@link ProberConfig#SETTINGS}. */
    static final List<Setting<?>> SETTINGS = List.of(TRUST_BUNDLES, CLIENT_CERTIFICATES, CLIENT_KEYS);

    /** No TLS material. */
    public static final ProberTls NONE = new ProberTls(Map.of(), Map.of(), Map.of());

    public ProberTls {
        trustBundles = Map.copyOf(requireNonNull(trustBundles, "trustBundles"));
        clientCertificates = Map.copyOf(requireNonNull(clientCertificates, "clientCertificates"));
        clientKeys = Map.copyOf(requireNonNull(clientKeys, "clientKeys"));
    }

    /** Reads the three settings; every malformed entry and every id without its pair is a problem of {@code r}. */
    static ProberTls read(SettingsReader r) {
        Map<String, Path> bundles = entries(r, TRUST_BUNDLES);
        Map<String, Path> certificates = entries(r, CLIENT_CERTIFICATES);
        Map<String, Path> keys = entries(r, CLIENT_KEYS);
        for (String id : certificates.keySet()) {
            if (!keys.containsKey(id)) {
                r.problem(CLIENT_KEYS.key(), "no entry for id " + id, "an id=path entry for every id of "
                        + CLIENT_CERTIFICATES.key());
            }
        }
        for (String id : keys.keySet()) {
            if (!certificates.containsKey(id)) {
                r.problem(CLIENT_CERTIFICATES.key(), "no entry for id " + id, "an id=path entry for every id of "
                        + CLIENT_KEYS.key());
            }
        }
        return new ProberTls(bundles, certificates, keys);
    }

    private static Map<String, Path> entries(SettingsReader r, Setting<String> setting) {
        Map<String, Path> out = new LinkedHashMap<>();
        String text = r.get(setting);
        if (text == null || text.isBlank()) {
            return out;
        }
        for (String entry : text.split(",")) {
            var m = ENTRY.matcher(entry.trim());
            if (!m.matches()) {
                // a path is no secret, but an entry may be a pasted key by mistake: only its length is shown
                r.problem(setting.key(), "an entry of " + entry.trim().length() + " characters", FORMAT);
            } else if (out.put(m.group(1), Path.of(m.group(2).trim())) != null) {
                r.problem(setting.key(), "id " + m.group(1) + " twice", "each id once");
            }
        }
        return out;
    }

    /**
     * Reads and checks the files.
     *
     * @throws IllegalArgumentException naming the id and path of a file that cannot be read or does not parse
     */
    public TlsMaterial material() {
        return TlsMaterial.load(trustBundles, clientCertificates, clientKeys);
    }

    @Override
    public String toString() {
        return "ProberTls[trustBundles=" + trustBundles.keySet() + ", clientKeys=" + clientCertificates.keySet() + "]";
    }
}
