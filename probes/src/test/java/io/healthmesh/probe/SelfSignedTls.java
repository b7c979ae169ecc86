package io.healthmesh.probe;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIMatcher;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLContext;

/**
 * A self-signed server certificate for {@code localhost} and {@code 127.0.0.1}, made offline with the JDK's
 * {@code keytool} (no BouncyCastle needed), and a helper that records the SNI names clients send.
 */
public final class SelfSignedTls {

    private static final char[] PASSWORD = "changeit".toCharArray();

    private SelfSignedTls() {
    }

    public static SSLContext serverContext(Path dir) throws IOException, InterruptedException, GeneralSecurityException {
        Path store = dir.resolve("server.p12");
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process process = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "server", "-keyalg", "EC",
                "-groupname", "secp256r1", "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1",
                "-validity", "2", "-storetype", "PKCS12", "-keystore", store.toString(),
                "-storepass", new String(PASSWORD), "-keypass", new String(PASSWORD))
                .redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException("keytool failed: " + new String(output));
        }
        KeyStore keyStore = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keyStore.load(in, PASSWORD);
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(keyStore, PASSWORD);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        return context;
    }

    /** Accepts every SNI name and remembers it. */
    public static final class RecordingSniMatcher extends SNIMatcher {
        public final List<String> names = new CopyOnWriteArrayList<>();

        public RecordingSniMatcher() {
            super(0);
        }

        @Override
        public boolean matches(SNIServerName serverName) {
            names.add(((SNIHostName) serverName).getAsciiName());
            return true;
        }
    }
}
