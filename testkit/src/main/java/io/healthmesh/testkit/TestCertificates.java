package io.healthmesh.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throw-away TLS identity for tests, made at test time with the JDK's {@code keytool} (nothing private is ever
 * committed): a self-signed EC certificate for {@code localhost} and {@code 127.0.0.1}, valid two days, as a PKCS12
 * key store, a PKCS12 trust store holding only the certificate, and the same certificate and key as PEM files. Test
 * support only, like the rest of this module: nothing of it ships in the product image.
 *
 * @param keyStore PKCS12 with the private key entry (alias {@code server})
 * @param trustStore PKCS12 with the certificate alone
 * @param certificatePem the certificate, PEM
 * @param privateKeyPem the private key, PEM PKCS#8, unencrypted
 * @param password the password of both stores and of the key entry
 */
public record TestCertificates(Path keyStore, Path trustStore, Path certificatePem, Path privateKeyPem, String password) {

    /** Creates the files in {@code dir}. */
    public static TestCertificates create(Path dir) {
        return create(dir, "server", 2);
    }

    /**
     * Creates an identity named {@code name} (files {@code <name>.p12}, {@code <name>-trust.p12},
     * {@code <name>.crt.pem}, {@code <name>.key.pem} in {@code dir}; {@code server} keeps the names of
     * {@link #create(Path)}) whose certificate expires {@code validityDays} days from now: several identities (a
     * server and a client, certificates with chosen expiries) side by side.
     */
    public static TestCertificates create(Path dir, String name, int validityDays) {
        return create(dir, name, validityDays, "localhost");
    }

    /**
     * As {@link #create(Path, String, int)}, for the host name {@code dnsName} (its CN and first SAN; {@code localhost}
     * and {@code 127.0.0.1} stay in the SAN): a name with a dot, which a JDK client sends as SNI where it sends
     * none for {@code localhost}.
     */
    public static TestCertificates create(Path dir, String name, int validityDays, String dnsName) {
        String password = "test-" + Long.toHexString(System.nanoTime());
        boolean server = name.equals("server");
        Path keyStore = dir.resolve(name + ".p12");
        Path trustStore = dir.resolve(server ? "trust.p12" : name + "-trust.p12");
        try {
            Files.createDirectories(dir);
            Files.deleteIfExists(keyStore);
            keytool(List.of("-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1",
                    "-dname", "CN=" + dnsName, "-ext", "SAN=dns:" + dnsName
                            + (dnsName.equals("localhost") ? "" : ",dns:localhost") + ",ip:127.0.0.1", "-validity",
                    Integer.toString(validityDays),
                    "-storetype", "PKCS12", "-keystore", keyStore.toString(), "-storepass", password, "-keypass", password));
            KeyStore store = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(keyStore)) {
                store.load(in, password.toCharArray());
            }
            Certificate certificate = store.getCertificate("server");
            Key key = store.getKey("server", password.toCharArray());
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("server", certificate);
            try (OutputStream out = Files.newOutputStream(trustStore)) {
                trust.store(out, password.toCharArray());
            }
            Path certPem = dir.resolve(name + ".crt.pem");
            Path keyPem = dir.resolve(name + ".key.pem");
            Files.writeString(certPem, pem("CERTIFICATE", certificate.getEncoded()), StandardCharsets.US_ASCII);
            Files.writeString(keyPem, pem("PRIVATE KEY", key.getEncoded()), StandardCharsets.US_ASCII);
            return new TestCertificates(keyStore, trustStore, certPem, keyPem, password);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write test certificates in " + dir, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot make test certificates: " + e.getMessage(), e);
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(der) + "\n-----END " + type + "-----\n";
    }

    private static void keytool(List<String> args) throws IOException {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        List<String> command = new java.util.ArrayList<>();
        command.add(keytool.toString());
        command.addAll(args);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("keytool did not finish within 60 s");
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while keytool ran", e);
        }
        if (process.exitValue() != 0) {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            throw new IllegalStateException("keytool failed (" + process.exitValue() + "): " + output);
        }
    }
}
