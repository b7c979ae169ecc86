package io.healthmesh.cli.targets;

import io.healthmesh.cli.BadInputException;
import io.healthmesh.cli.kafka.ClusterCommand;
import io.healthmesh.cli.output.AvroJson;
import io.healthmesh.schema.TargetDefinition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;


/** {@code healthmesh targets get ID}: one definition, printed in the format {@code targets apply} reads. */
@Command(name = "get", mixinStandardHelpOptions = true, description = "Show one target definition.")
public final class GetCommand extends ClusterCommand {

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
        TargetDefinition d = new TargetTopic(kafka).read().values().get(id);
        if (d == null) {
            throw new BadInputException("no target " + id + " in " + kafka.topics().targets());
        }
        out().print(OutputFormat.write(output, AvroJson.of(d, true)));
        out().flush();
        return 0;
    }
}
