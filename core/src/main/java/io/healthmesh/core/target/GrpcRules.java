package io.healthmesh.core.target;

import java.util.List;
import java.util.regex.Pattern;

/** The rules of a GRPC definition's {@code grpc} section; called by {@link TargetValidator}. */
final class GrpcRules {

    /** Printable ASCII without spaces: what a fully qualified gRPC service name is made of. */
    private static final Pattern SERVICE = Pattern.compile("[\\x21-\\x7e]*");

    private GrpcRules() {
    }

    static void check(List<Violation> out, GrpcSpec grpc) {
        String service = grpc.service();
        if (service.length() > GrpcSpec.MAX_SERVICE_LENGTH) {
            out.add(Violation.of("grpc.service", service.length() + " characters",
                    "at most " + GrpcSpec.MAX_SERVICE_LENGTH));
        } else if (!SERVICE.matcher(service).matches()) {
            out.add(Violation.of("grpc.service", Texts.show(service),
                    "printable ASCII without spaces, e.g. grpc.health.v1.Health; empty for the whole server"));
        }
    }
}
