package io.healthmesh.registry;

import java.nio.charset.StandardCharsets;

/** An HTTP answer of the registry: status, content type and body. */
record ApiResponse(int status, String contentType, byte[] body) {

    /** Confluent's media type, on every API answer. */
    static final String REGISTRY_JSON = "application/vnd.schemaregistry.v1+json";

    static ApiResponse json(int status, String json) {
        return new ApiResponse(status, REGISTRY_JSON, json.getBytes(StandardCharsets.UTF_8));
    }

    static ApiResponse text(int status, String contentType, byte[] body) {
        return new ApiResponse(status, contentType, body);
    }

    String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }
}
