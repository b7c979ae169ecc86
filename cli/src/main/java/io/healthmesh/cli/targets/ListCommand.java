package io.healthmesh.cli.targets;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.healthmesh.cli.kafka.ClusterCommand;
import io.healthmesh.cli.kafka.CompactedTopic;
import io.healthmesh.cli.output.AvroJson;
import io.healthmesh.schema.TargetDefinition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/** {@code healthmesh targets list}: every current definition, read from the compacted topic to its end. */
@Command(name = "list", mixinStandardHelpOptions = true, description = "List the current target definitions.")
public final class ListCommand extends ClusterCommand {

    @Option(names = "--group", paramLabel = "GROUP", description = "Only the targets of this group.")
    String group;

    @Option(names = {"-o", "--output"}, defaultValue = "table", paramLabel = "FORMAT",
            description = "table, yaml (re-appliable) or json (default: ${DEFAULT-VALUE}).")
    OutputFormat output;

    @Override
    public Integer call() {
        PrintWriter out = out();
        TargetTopic topic = new TargetTopic(kafka);
        CompactedTopic.Contents<TargetDefinition> contents = topic.read();
        List<TargetDefinition> shown = contents.values().values().stream()
                .filter(d -> group == null || group.equals(d.getGroup()))
                .sorted(Comparator.comparing(TargetDefinition::getGroup).thenComparing(TargetDefinition::getId))
                .toList();
        switch (output) {
            case TABLE -> printTable(out, shown);
            case JSON, YAML -> {
                ArrayNode list = JsonNodeFactory.instance.arrayNode();
                shown.forEach(d -> list.add(AvroJson.of(d, true)));
                ObjectNode doc = JsonNodeFactory.instance.objectNode();
                doc.set("targets", list);
                out.print(OutputFormat.write(output, doc));
            }
        }
        contents.undecodable().forEach(u -> spec.commandLine().getErr().println("warning: undecodable record " + u));
        OldTlsDefaultWarning.about(contents.values().values(), Set.of())
                .ifPresent(spec.commandLine().getErr()::println);
        spec.commandLine().getErr().flush();
        out.flush();
        return 0;
    }

    private static void printTable(PrintWriter out, List<TargetDefinition> shown) {
        String format = "%-28s %-16s %-6s %-28s %6s %9s %9s %5s %s%n";
        out.printf(format, "ID", "GROUP", "PROTO", "ADDRESS", "PORT", "INTERVAL", "TIMEOUT", "H/U", "ENABLED");
        for (TargetDefinition d : shown) {
            out.printf(format, d.getId(), d.getGroup(), d.getProtocol(), d.getAddress(), d.getPort(),
                    d.getIntervalMs() + "ms", d.getTimeoutMs() + "ms",
                    d.getHealthyThreshold() + "/" + d.getUnhealthyThreshold(), d.getEnabled());
        }
        out.printf("%d target(s)%n", shown.size());
    }
}
