package io.healthmesh.cli.targets;

import io.healthmesh.cli.BadInputException;
import io.healthmesh.cli.kafka.KafkaOptions;
import io.healthmesh.cli.output.AvroJson;
import io.healthmesh.schema.TargetDefinition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code healthmesh targets get ID}: one definition, printed in the format {@code targets apply} reads. */
@Command(name = "get", mixinStandardHelpOptions = true, description = "Show one target definition.")
public final class GetCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    KafkaOptions kafka;

    @Parameters(index = "0", paramLabel = "ID", description = "The target id.")
    String id;

    @Option(names = {"-o", "--output"}, defaultValue = "yaml", paramLabel = "FORMAT",
            description = "yaml or json (default: ${DEFAULT-VALUE}).")
    OutputFormat output;

    @Override
    public Integer call() {
        if (output == OutputFormat.TABLE) {
            throw new BadInputException("-o table: get prints yaml or json");
        }
        TargetDefinition d = new TargetTopic(kafka).read().definitions().get(id);
        if (d == null) {
            throw new BadInputException("no target " + id + " in " + kafka.topics().targets());
        }
        spec.commandLine().getOut().print(OutputFormat.write(output, AvroJson.of(d, true)));
        spec.commandLine().getOut().flush();
        return 0;
    }
}
