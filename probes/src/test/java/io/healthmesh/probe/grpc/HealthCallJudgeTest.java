package io.healthmesh.probe.grpc;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.probe.grpc.HealthCallJudge.Verdict;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;

class HealthCallJudgeTest {

    private static ByteBuf message(int status) {
        return Unpooled.wrappedBuffer(HexFormat.of().parseHex("0000000002" + "08" + String.format("%02x", status)));
    }

    @Test
    void grpcHeadersReadOn() {
        assertThat(HealthCallJudge.headers(200, "application/grpc")).isNull();
        assertThat(HealthCallJudge.headers(200, "application/grpc+proto")).isNull();
    }

    @Test
    void anotherHttpStatusOrContentTypeIsNotGrpc() {
        assertThat(HealthCallJudge.headers(404, "application/grpc"))
                .isEqualTo(new Verdict(Outcome.UNEXPECTED_STATUS, "HTTP status 404 (expected: 200 from a gRPC server)"));
        assertThat(HealthCallJudge.headers(-1, null).outcome()).isEqualTo(Outcome.UNEXPECTED_STATUS);
        assertThat(HealthCallJudge.headers(200, "text/html; secret-server-text")).isEqualTo(new Verdict(
                Outcome.UNEXPECTED_RESPONSE, "the response is not gRPC (content-type is not application/grpc)"));
    }

    @Test
    void servingIsTheOnlySuccess() {
        assertThat(HealthCallJudge.trailers("0", message(1)))
                .isEqualTo(new Verdict(Outcome.SUCCESS, "SERVING", "SERVING"));
        assertThat(HealthCallJudge.trailers("0", message(2)))
                .isEqualTo(new Verdict(Outcome.UNEXPECTED_RESPONSE, "NOT_SERVING", "NOT_SERVING"));
        assertThat(HealthCallJudge.trailers("0", message(3)))
                .isEqualTo(new Verdict(Outcome.UNEXPECTED_RESPONSE, "SERVICE_UNKNOWN", "SERVICE_UNKNOWN"));
        assertThat(HealthCallJudge.trailers("0", message(0)))
                .isEqualTo(new Verdict(Outcome.UNEXPECTED_RESPONSE, "UNKNOWN", "UNKNOWN"));
    }

    @Test
    void aGrpcStatusOtherThanOkNamesTheStatus() {
        assertThat(HealthCallJudge.trailers("5", Unpooled.EMPTY_BUFFER)).isEqualTo(new Verdict(
                Outcome.UNEXPECTED_RESPONSE, "grpc-status 5 NOT_FOUND (the server does not know the service)"));
        assertThat(HealthCallJudge.trailers("12", Unpooled.EMPTY_BUFFER).detail())
                .isEqualTo("grpc-status 12 UNIMPLEMENTED (the server has no grpc.health.v1.Health service)");
        assertThat(HealthCallJudge.trailers("14", Unpooled.EMPTY_BUFFER).detail()).isEqualTo("grpc-status 14 UNAVAILABLE");
        assertThat(HealthCallJudge.trailers("99", Unpooled.EMPTY_BUFFER).detail())
                .isEqualTo("grpc-status 99 (not a gRPC status code)");
    }

    @Test
    void aMissingOrMalformedStatusIsAFailure() {
        assertThat(HealthCallJudge.trailers(null, message(1)))
                .isEqualTo(new Verdict(Outcome.UNEXPECTED_RESPONSE, "no grpc-status in the trailers"));
        assertThat(HealthCallJudge.trailers("OK", message(1)).detail()).isEqualTo("grpc-status is not a number");
        assertThat(HealthCallJudge.trailers("0", Unpooled.EMPTY_BUFFER).detail())
                .isEqualTo("grpc-status 0 with no complete response message");
    }
}
