package io.healthmesh.probe.condition;

import java.util.List;
import java.util.Map;

/**
 * What a condition reads: the facts of one finished check. A fact the check did not produce is {@code null} (or
 * empty for headers and body).
 *
 * @param httpStatus   the HTTP status, 0 without one
 * @param latencyMs    how long the check took, milliseconds
 * @param headers      the response headers by lower-case name (the first value of a repeated one)
 * @param body         the first bytes of the body as UTF-8, at most the language's body bound
 * @param bodyComplete true when {@code body} is the whole body (only then is it parsed as JSON)
 * @param dnsRcode     the DNS response code by name
 * @param dnsAnswers   the DNS answers of the asked type, as text
 * @param tlsDaysLeft  whole days until the certificate chain's earliest expiry
 * @param grpcStatus   the gRPC serving status by name
 */
public record ConditionInput(int httpStatus, long latencyMs, Map<String, String> headers, String body,
                             boolean bodyComplete, String dnsRcode, List<String> dnsAnswers, Long tlsDaysLeft,
                             String grpcStatus) {

    public ConditionInput {
        headers = headers == null ? Map.of() : headers;
        body = body == null ? "" : body;
    }
}
