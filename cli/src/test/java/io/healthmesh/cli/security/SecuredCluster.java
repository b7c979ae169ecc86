package io.healthmesh.cli.security;

import io.healthmesh.testkit.Await;
import io.healthmesh.embedded.EmbeddedKafka;
import io.healthmesh.embedded.EmbeddedKafkaConfig;
import io.healthmesh.testkit.TestCertificates;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A broker with a {@code SASL_SSL} listener (SCRAM-SHA-512 and OAUTHBEARER with Kafka's unsecured JWTs for tests),
 * the StandardAuthorizer, and a PLAINTEXT listener on loopback for this test's own administration (its principal,
 * {@code User:ANONYMOUS}, is the super user). Users get SCRAM credentials and ACLs through the admin.
 */
final class SecuredCluster implements AutoCloseable {

    private final EmbeddedKafka broker;
    private final TestCertificates certs;
    private final Admin admin;
    private final Map<String, String> passwords = new LinkedHashMap<>();

    private SecuredCluster(EmbeddedKafka broker, TestCertificates certs, Admin admin) {
        this.broker = broker;
        this.certs = certs;
        this.admin = admin;
    }

    static SecuredCluster start(Path dir) {
        TestCertificates certs = TestCertificates.create(dir.resolve("tls"));
        String l = "listener.name." + EmbeddedKafka.SECURE_LISTENER.toLowerCase() + ".";
        Map<String, String> overrides = new LinkedHashMap<>();
        overrides.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        overrides.put("super.users", "User:ANONYMOUS");
        overrides.put(l + "ssl.keystore.location", certs.keyStore().toString());
        overrides.put(l + "ssl.keystore.password", certs.password());
        overrides.put(l + "ssl.key.password", certs.password());
        overrides.put(l + "ssl.keystore.type", "PKCS12");
        overrides.put(l + "sasl.enabled.mechanisms", "SCRAM-SHA-512,OAUTHBEARER");
        overrides.put(l + "scram-sha-512.sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required;");
        overrides.put(l + "oauthbearer.sasl.jaas.config",
                "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required unsecuredLoginStringClaim_sub=\"broker\";");
        EmbeddedKafka broker = EmbeddedKafka.startSecured(EmbeddedKafkaConfig.defaults(), "SASL_SSL", overrides);
        Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
        return new SecuredCluster(broker, certs, admin);
    }

    String secureBootstrap() {
        return broker.secureBootstrapServers();
    }

    TestCertificates certs() {
        return certs;
    }

    Admin admin() {
        return admin;
    }

    /** Gives {@code user} a fresh SCRAM-SHA-512 password. */
    void addUser(String user) throws Exception {
        String password = UUID.randomUUID().toString();
        passwords.put(user, password);
        List<UserScramCredentialAlteration> upsert = List.of(new UserScramCredentialUpsertion(user,
                new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192), password));
        admin.alterUserScramCredentials(upsert).all().get(30, TimeUnit.SECONDS);
    }

    /** The Kafka client properties of {@code user} over SCRAM-SHA-512. */
    Map<String, String> scram(String user) {
        Map<String, String> props = tls();
        props.put("sasl.mechanism", "SCRAM-SHA-512");
        props.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user
                + "\" password=\"" + passwords.get(user) + "\";");
        return props;
    }

    /** The Kafka client properties of {@code user} over OAUTHBEARER with an unsecured JWT (tests only). */
    Map<String, String> oauth(String user) {
        Map<String, String> props = tls();
        props.put("sasl.mechanism", "OAUTHBEARER");
        props.put("sasl.jaas.config", "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required "
                + "unsecuredLoginStringClaim_sub=\"" + user + "\";");
        return props;
    }

    private Map<String, String> tls() {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("security.protocol", "SASL_SSL");
        props.put("ssl.truststore.location", certs.trustStore().toString());
        props.put("ssl.truststore.password", certs.password());
        props.put("ssl.truststore.type", "PKCS12");
        return props;
    }

    /** Grants ACLs and waits until the broker's authorizer has them (they travel through the metadata log). */
    void allow(List<AclBinding> bindings) throws Exception {
        admin.createAcls(bindings).all().get(30, TimeUnit.SECONDS);
        Await.until(Duration.ofSeconds(30), () -> {
            try {
                return admin.describeAcls(org.apache.kafka.common.acl.AclBindingFilter.ANY).values()
                        .get(30, TimeUnit.SECONDS).size() >= bindings.size();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException(e);
            }
        }, () -> bindings.size() + " ACLs visible");
    }

    /** Waits until {@code props} authenticate (credentials reach the broker through the metadata log). */
    void awaitLogin(Map<String, String> props) {
        Map<String, Object> config = new LinkedHashMap<>(props);
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, secureBootstrap());
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "15000");
        AtomicReference<Exception> last = new AtomicReference<>();
        Await.until(Duration.ofSeconds(60), () -> {
            try (Admin user = Admin.create(config)) {
                user.describeCluster().clusterId().get(15, TimeUnit.SECONDS);
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } catch (Exception e) {
                last.set(e);
                return false;
            }
        }, () -> "a login with the new credentials; last error: " + last.get());
    }

    static AclBinding allow(String user, ResourceType type, String name, PatternType pattern, AclOperation operation) {
        return new AclBinding(new ResourcePattern(type, name, pattern),
                new AccessControlEntry("User:" + user, "*", operation, AclPermissionType.ALLOW));
    }

    static List<AclBinding> bindings(Object... rows) {
        List<AclBinding> list = new ArrayList<>();
        for (Object row : rows) {
            list.add((AclBinding) row);
        }
        return list;
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
        broker.close();
    }
}
