package io.healthmesh.core.target;

import java.util.List;
import java.util.Map;

/**
 * HTTP/HTTPS probe settings.
 *
 * @param host Host header and SNI; {@code null} sends the target address
 * @param expectedStatuses classes such as {@code 2xx} and exact codes such as {@code 200}
 * @param bodyContains text that the first {@value #BODY_SEARCH_LIMIT} body bytes must contain, or {@code null}
 * @param tlsVerify verify the server's certificate (HTTPS, and a plain check's redirects to https); a new GENERIC
 *                  HTTPS definition gets true unless it says {@code tls.insecureSkipVerify} ({@link TlsVerification})
 */
public record HttpSpec(HttpMethod method, String path, String host, List<String> expectedStatuses,
                       boolean followRedirects, Map<String, String> headers, String bodyContains,
                       boolean tlsVerify) {

    /** Body bytes searched for {@code bodyContains}. */
    public static final int BODY_SEARCH_LIMIT = 5120;

    /** The settings used when a definition has no {@code http} section. */
    public static final HttpSpec DEFAULTS =
            new HttpSpec(HttpMethod.HEAD, "/", null, List.of("2xx"), false, Map.of(), null, false);

    public HttpSpec {
        expectedStatuses = List.copyOf(expectedStatuses);
        headers = Map.copyOf(headers);
    }

    /**
     * The domain sent as Host and SNI: {@code host}, or else a {@code host} entry of the custom headers (which the
     * validator accepts only under TENCENT_EDGEONE, 001's "custom HOST"), or {@code null} for none.
     */
    public String domain() {
        return host != null ? host : ProfileRules.hostHeader(headers);
    }
}
