package io.healthmesh.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A plain HTTP client of the registry under test, answers parsed as JSON. */
final class RegistryHttp {

    /** One answer: status, content type and JSON body. */
    record Answer(int status, String contentType, String text, String wwwAuthenticate) {
        JsonNode json() {
            try {
                return JSON.readTree(text);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + text, e);
            }
        }

        int errorCode() {
            return json().path("error_code").asInt();
        }
    }

    static final ObjectMapper JSON = new ObjectMapper();

    private final String baseUrl;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String authorization;

    RegistryHttp(String baseUrl) {
        this(baseUrl, null);
    }

    private RegistryHttp(String baseUrl, String authorization) {
        this.baseUrl = baseUrl;
        this.authorization = authorization;
    }

    /** The same client sending HTTP basic credentials. */
    RegistryHttp as(String user, String password) {
        return new RegistryHttp(baseUrl, "Basic " + java.util.Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    Answer get(String path) {
        return send("GET", path, null, "application/vnd.schemaregistry.v1+json");
    }

    Answer delete(String path) {
        return send("DELETE", path, null, "application/vnd.schemaregistry.v1+json");
    }

    Answer post(String path, String body) {
        return send("POST", path, body, "application/vnd.schemaregistry.v1+json");
    }

    Answer put(String path, String body) {
        return send("PUT", path, body, "application/vnd.schemaregistry.v1+json");
    }

    /** A register / lookup / compatibility body for a schema text. */
    static String schemaBody(String schema) {
        return JSON.createObjectNode().put("schema", schema).toString();
    }

    Answer send(String method, String path, String body, String contentType) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(20))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", contentType);
        }
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""), response.body(),
                    response.headers().firstValue("WWW-Authenticate").orElse(null));
        } catch (IOException e) {
            throw new AssertionError(method + " " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
