package io.healthmesh.testkit;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension that hands integration tests a real Kafka broker and schema registry as a {@link TestKafka}
 * parameter (of a test method, a lifecycle method or a constructor):
 *
 * <pre>{@code
 * @ExtendWith(KafkaExtension.class)
 * class ProberIT {
 *     @Test
 *     void publishesResults(TestKafka kafka) { ... kafka.bootstrapServers() ... }
 * }
 * }</pre>
 *
 * <p>One broker and one registry serve every test class of the JVM: they start on first use and stop at the end of
 * the run (they live in the root context's store). The broker is the embedded KRaft broker, or Testcontainers' Kafka
 * container when the system property {@value #CONTAINERS_PROPERTY} is {@code true} (Maven profile
 * {@code -Pcontainers}) and a Docker engine answers; the image is {@value #KAFKA_IMAGE_PROPERTY}
 * (default {@value #DEFAULT_KAFKA_IMAGE}). One log line says which broker was chosen and why.
 */
public final class KafkaExtension implements ParameterResolver {

    /** {@code true} asks for the Kafka container instead of the embedded broker. */
    public static final String CONTAINERS_PROPERTY = "healthmesh.containers";
    /** The Kafka image the container tier runs. */
    public static final String KAFKA_IMAGE_PROPERTY = "healthmesh.kafka.image";
    /** Kafka's official image at the version the build uses. */
    public static final String DEFAULT_KAFKA_IMAGE = "apache/kafka:4.1.1";

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(KafkaExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == TestKafka.class;
    }

    @Override
    public TestKafka resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return shared(extensionContext).testKafka();
    }

    private static TestEnvironment shared(ExtensionContext context) {
        // The root store outlives every test class and is closed once, at the end of the run.
        return context.getRoot().getStore(NAMESPACE)
                .getOrComputeIfAbsent(TestEnvironment.class, key -> TestEnvironment.start(), TestEnvironment.class);
    }
}
