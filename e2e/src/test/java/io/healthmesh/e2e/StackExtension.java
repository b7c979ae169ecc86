package io.healthmesh.e2e;

import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.contract.Topics;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestWatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;


/**
 * Hands tests one {@link Stack}, shared by every container test class of the JVM: started on first use, closed
 * when the run ends. Skips (with the reason) when the container tier is off or no Docker engine answers; on a
 * failed test, logs the tail of every container's output.
 */
final class StackExtension implements BeforeAllCallback, ParameterResolver, TestWatcher {

    /** The running stack and the observer's feeds of its topics. */
    record Stack(HealthmeshStack containers, TopicFeed<TargetHealth> states, TopicFeed<GroupHealth> groups,
                 TopicFeed<ProbeResult> results) implements AutoCloseable {
        @Override
        public void close() {
            results.close();
            groups.close();
            states.close();
            containers.close();
        }
    }

    private static final Logger LOG = LoggerFactory.getLogger(StackExtension.class);
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(StackExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        ContainerTier.assumeAvailable();
        stack(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Stack.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return stack(context);
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        Stack stack = context.getRoot().getStore(NAMESPACE).get(Stack.class, Stack.class);
        if (stack != null) {
            LOG.error("{} failed; container logs:\n{}", context.getDisplayName(), stack.containers().logTails(40));
        }
    }

    private static Stack stack(ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(Stack.class, k -> open(), Stack.class);
    }

    private static Stack open() {
        E2eImages images = E2eImages.fromEnvironment(System.getenv());
        images.requirePresent();
        HealthmeshStack containers = HealthmeshStack.start(images);
        try {
            Map<String, Object> serde = Map.of("schema.registry.url", containers.registryUrl());
            Topics topics = Topics.DEFAULT;
            String bootstrap = containers.bootstrapServers();
            return new Stack(containers,
                    TopicFeed.start(bootstrap, topics.healthState(), TargetHealth.class, serde),
                    TopicFeed.start(bootstrap, topics.groupState(), GroupHealth.class, serde),
                    TopicFeed.start(bootstrap, topics.probeResults(), ProbeResult.class, serde));
        } catch (RuntimeException | Error e) {
            LOG.error("feeds did not start; container logs:\n{}", containers.logTails(60));
            containers.close();
            throw e;
        }
    }
}
