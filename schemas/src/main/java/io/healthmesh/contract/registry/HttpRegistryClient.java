package io.healthmesh.contract.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A client of a Confluent-compatible schema registry over HTTP ({@code java.net.http}), speaking
 * {@code application/vnd.schemaregistry.v1+json}. With several base URLs it tries them in order
 * while they cannot be reached. A refusal becomes a {@link RegistryException} with the registry's
 * {@code error_code}; an unreachable registry or an unreadable answer one with
 * {@link RegistryException#UNREACHABLE}, and the message names the URL.
 */
public final class HttpRegistryClient implements SchemaRegistryClient {

    /** Confluent's media type, sent as Content-Type and Accept. */
    public static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_BODY_IN_MESSAGE = 300;

    private final List<URI> baseUrls;
    private final Optional<String> authorization;
    private final Duration requestTimeout;
    private final HttpClient http;

    /**
     * @param baseUrls registry URLs, e.g. {@code http://127.0.0.1:8081}; user info in a URL is never sent
     * @param userInfo {@code user:password} for HTTP basic authentication, or empty
     * @param connectTimeout bound on establishing a connection
     * @param requestTimeout bound on a whole request
     */
    public HttpRegistryClient(List<URI> baseUrls, Optional<String> userInfo, Duration connectTimeout, Duration requestTimeout) {
        this(baseUrls, userInfo, connectTimeout, requestTimeout, Optional.empty());
    }

    /**
     * @param tls the TLS context for https URLs (trust and key stores), or empty for the JVM's default
     */
    public HttpRegistryClient(List<URI> baseUrls, Optional<String> userInfo, Duration connectTimeout, Duration requestTimeout,
                              Optional<SSLContext> tls) {
        requireNonNull(baseUrls, "baseUrls");
        if (baseUrls.isEmpty()) {
            throw new IllegalArgumentException("baseUrls: [] (expected: at least one URL)");
        }
        this.baseUrls = baseUrls.stream().map(HttpRegistryClient::withoutUserInfo).toList();
        this.authorization = requireNonNull(userInfo, "userInfo")
                .map(u -> "Basic " + Base64.getEncoder().encodeToString(u.getBytes(StandardCharsets.UTF_8)));
        this.requestTimeout = requireNonNull(requestTimeout, "requestTimeout");
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(requireNonNull(connectTimeout, "connectTimeout"));
        requireNonNull(tls, "tls").ifPresent(builder::sslContext);
        this.http = builder.build();
    }

    @Override
    public int register(String subject, String schema) {
        return send("POST", "/subjects/" + segment(subject) + "/versions", schemaBody(schema)).path("id").asInt();
    }

    @Override
    public RegisteredSchema lookup(String subject, String schema) {
        return registered(send("POST", "/subjects/" + segment(subject), schemaBody(schema)));
    }

    @Override
    public RegisteredSchema latest(String subject) {
        return registered(send("GET", "/subjects/" + segment(subject) + "/versions/latest", null));
    }

    @Override
    public String schemaById(int id) {
        JsonNode schema = send("GET", "/schemas/ids/" + id, null).get("schema");
        if (schema == null || !schema.isTextual()) {
            throw new RegistryException(RegistryException.UNREACHABLE, "GET /schemas/ids/" + id + ": answer without a schema");
        }
        return schema.asText();
    }

    private static String schemaBody(String schema) {
        ObjectNode body = JSON.createObjectNode();
        body.put("schema", schema);
        return body.toString();
    }

    private static RegisteredSchema registered(JsonNode node) {
        if (!node.hasNonNull("subject") || !node.hasNonNull("schema") || !node.has("id") || !node.has("version")) {
            throw new RegistryException(RegistryException.UNREACHABLE, "registry answer is not a subject version: " + node);
        }
        return new RegisteredSchema(node.get("subject").asText(), node.get("version").asInt(),
                node.get("id").asInt(), node.get("schema").asText());
    }

    private JsonNode send(String method, String path, String body) {
        IOException last = null;
        for (URI base : baseUrls) {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base.toString().replaceAll("/+$", "") + path))
                    .timeout(requestTimeout)
                    .header("Accept", CONTENT_TYPE)
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
            if (body != null) {
                request.header("Content-Type", CONTENT_TYPE);
            }
            authorization.ifPresent(a -> request.header("Authorization", a));
            HttpResponse<String> response;
            try {
                response = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            } catch (IOException e) {
                last = e;
                continue;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RegistryException(RegistryException.UNREACHABLE, method + " " + base + path + ": interrupted", e);
            }
            return answer(method, base + path, response);
        }
        throw new RegistryException(RegistryException.UNREACHABLE,
                "schema registry unreachable at " + baseUrls + " (" + method + " " + path + "): " + last, last);
    }

    private static JsonNode answer(String method, String url, HttpResponse<String> response) {
        JsonNode node;
        try {
            node = JSON.readTree(response.body());
        } catch (IOException e) {
            node = null;
        }
        if (response.statusCode() / 100 == 2 && node != null) {
            return node;
        }
        if (node != null && node.has("error_code")) {
            throw new RegistryException(node.get("error_code").asInt(), node.path("message").asText());
        }
        String text = response.body() == null ? "" : response.body();
        if (text.length() > MAX_BODY_IN_MESSAGE) {
            text = text.substring(0, MAX_BODY_IN_MESSAGE) + "...";
        }
        int code = response.statusCode() / 100 == 2 ? RegistryException.UNREACHABLE : response.statusCode();
        throw new RegistryException(code, method + " " + url + ": HTTP " + response.statusCode() + " " + text);
    }

    /** Percent-encodes one path segment (a subject name may hold any character). */
    static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static URI withoutUserInfo(URI uri) {
        if (uri.getRawUserInfo() == null) {
            return uri;
        }
        return URI.create(uri.getScheme() + "://" + uri.getRawAuthority().substring(uri.getRawAuthority().indexOf('@') + 1)
                + (uri.getRawPath() == null ? "" : uri.getRawPath()));
    }
}
