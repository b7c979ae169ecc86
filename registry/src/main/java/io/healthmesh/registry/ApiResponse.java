package io.healthmesh.registry;

import java.nio.charset.StandardCharsets;

/** An HTTP answer of the registry API: status and JSON body. */
record ApiResponse(int status, byte[] body) {

    static ApiResponse json(int status, String json) {
        return new ApiResponse(status, json.getBytes(StandardCharsets.UTF_8));
    }

    String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }
}
