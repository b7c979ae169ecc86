package io.healthmesh.probe.grpc;

import io.healthmesh.core.probe.Outcome;
import io.netty.buffer.ByteBuf;

/**
 * Judges a health call from what the server sent: the response headers, then the trailers with the message read
 * between them. SERVING with {@code grpc-status} 0 is a success; every other answer a failure whose detail names the
 * status. A detail says what kind of answer came, from fixed texts and numbers: never a header value or message text
 * the server chose ({@code grpc-message} is not read).
 */
final class HealthCallJudge {

    /**
     * The verdict: an outcome and its detail.
     *
     * @param servingStatus the {@code ServingStatus} the server answered, by name, or {@code null} when the call
     *                      ended before one was read
     */
    record Verdict(Outcome outcome, String detail, String servingStatus) {
        Verdict(Outcome outcome, String detail) {
            this(outcome, detail, null);
        }
    }

    private static final String[] STATUS_NAMES = {"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT",
        "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED",
        "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
        "UNAUTHENTICATED"};
    private static final int NOT_FOUND = 5;
    private static final int UNIMPLEMENTED = 12;

    private HealthCallJudge() {
    }

    /**
     * The response headers: {@code null} to read on, or the verdict when they already decide (not a gRPC answer).
     *
     * @param httpStatus the {@code :status}, or -1 when absent or not a number
     * @param contentType the {@code content-type}, or {@code null}
     */
    static Verdict headers(int httpStatus, CharSequence contentType) {
        if (httpStatus != 200) {
            return new Verdict(Outcome.UNEXPECTED_STATUS, httpStatus < 0 ? "no HTTP/2 :status in the response"
                    : "HTTP status " + httpStatus + " (expected: 200 from a gRPC server)");
        }
        if (contentType == null || !contentType.toString().startsWith("application/grpc")) {
            return new Verdict(Outcome.UNEXPECTED_RESPONSE, "the response is not gRPC (content-type is not"
                    + " application/grpc)");
        }
        return null;
    }

    /**
     * The end of the call: the trailers' {@code grpc-status} and the message bytes read before them.
     *
     * @param grpcStatus the {@code grpc-status} text, or {@code null} when the trailers had none
     */
    static Verdict trailers(CharSequence grpcStatus, ByteBuf message) {
        if (grpcStatus == null) {
            return new Verdict(Outcome.UNEXPECTED_RESPONSE, "no grpc-status in the trailers");
        }
        int code = statusCode(grpcStatus);
        if (code < 0) {
            return new Verdict(Outcome.UNEXPECTED_RESPONSE, "grpc-status is not a number");
        }
        if (code != 0) {
            return new Verdict(Outcome.UNEXPECTED_RESPONSE, "grpc-status " + code + " " + statusName(code)
                    + hint(code));
        }
        int serving;
        try {
            serving = HealthMessages.status(message);
        } catch (IllegalArgumentException e) {
            return new Verdict(Outcome.UNEXPECTED_RESPONSE, "grpc-status 0 with " + e.getMessage());
        }
        String name = HealthMessages.servingStatusName(serving);
        return new Verdict(serving == HealthMessages.SERVING ? Outcome.SUCCESS : Outcome.UNEXPECTED_RESPONSE, name,
                name);
    }

    /** The name of a grpc-status code; {@code code} for one outside the protocol's table. */
    static String statusName(int code) {
        return code < STATUS_NAMES.length ? STATUS_NAMES[code] : "(not a gRPC status code)";
    }

    private static String hint(int code) {
        return switch (code) {
            case NOT_FOUND -> " (the server does not know the service)";
            case UNIMPLEMENTED -> " (the server has no grpc.health.v1.Health service)";
            default -> "";
        };
    }

    /** The decimal code, or -1 when {@code text} is not 1 to 3 digits. */
    private static int statusCode(CharSequence text) {
        if (text.length() == 0 || text.length() > 3) {
            return -1;
        }
        int code = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            code = code * 10 + (c - '0');
        }
        return code;
    }
}
