package io.healthmesh.registry;

import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.GroupPolicy;
import io.healthmesh.schema.Maintenance;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.contract.Topics;
import io.healthmesh.contract.registry.RegistryException;
import io.healthmesh.contract.registry.SchemaRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Registers the contract's value schemas (this build's) under {@code <topic>-value} for each configured topic
 * prefix when the registry starts, as the registry itself (no HTTP, no credentials). With them in place, workers
 * and clients need only the read role: their serializers' registrations find the schema already there. A schema
 * the subject's compatibility refuses is logged and skipped, never a reason not to start.
 */
final class ContractSchemas {

    private static final Logger LOG = LoggerFactory.getLogger(ContractSchemas.class);

    private ContractSchemas() {
    }

    /** The subjects and schemas of one topic prefix. */
    static Map<String, String> of(Topics topics) {
        Map<String, String> subjects = new LinkedHashMap<>();
        subjects.put(topics.targets() + "-value", TargetDefinition.getClassSchema().toString());
        subjects.put(topics.probeResults() + "-value", ProbeResult.getClassSchema().toString());
        subjects.put(topics.healthState() + "-value", TargetHealth.getClassSchema().toString());
        subjects.put(topics.groupState() + "-value", GroupHealth.getClassSchema().toString());
        subjects.put(topics.groups() + "-value", GroupPolicy.getClassSchema().toString());
        subjects.put(topics.maintenance() + "-value", Maintenance.getClassSchema().toString());
        return subjects;
    }

    static void register(SchemaRegistry registry, List<String> prefixes) {
        for (String prefix : prefixes) {
            of(new Topics(prefix)).forEach((subject, schema) -> {
                try {
                    int id = registry.register(subject, schema);
                    LOG.info("contract schema of {} registered (id {})", subject, id);
                } catch (RegistryException e) {
                    LOG.warn("contract schema of {} not registered: {}", subject, e.getMessage());
                }
            });
        }
    }
}
