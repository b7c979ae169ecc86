package io.healthmesh.registry;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.healthmesh.contract.registry.CompatibilityLevel;
import io.healthmesh.contract.registry.RegisteredSchema;
import io.healthmesh.contract.registry.RegistryException;
import io.healthmesh.contract.registry.SchemaRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Confluent's REST API over a {@link SchemaRegistry}, free of any HTTP library: a method, the path
 * segments (already percent-decoded one by one), the query and the body in, status and JSON out.
 * Refusals carry Confluent's body {@code {"error_code":..,"message":..}}: the registry's own codes,
 * and 404 / 405 / 400 for an unknown path, a method the path does not take and a malformed body.
 */
final class RegistryApi {

    private static final Logger LOG = LoggerFactory.getLogger(RegistryApi.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A request as the API sees it. */
    record Request(String method, List<String> path, Map<String, List<String>> query, byte[] body) {
    }

    /** A refusal outside the registry's own codes (404 path, 405 method, 400 body). */
    private static final class HttpRefusal extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final int status;

        HttpRefusal(int status, String message) {
            super(message, null, false, false);
            this.status = status;
        }
    }

    private final SchemaRegistry registry;

    RegistryApi(SchemaRegistry registry) {
        this.registry = requireNonNull(registry, "registry");
    }

    ApiResponse handle(Request request) {
        try {
            return route(request);
        } catch (RegistryException e) {
            return error(e.httpStatus(), e.errorCode(), e.getMessage());
        } catch (HttpRefusal e) {
            return error(e.status, e.status, e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("Registry request {} /{} failed", request.method(), String.join("/", request.path()), e);
            return error(500, 50001, "Error in the registry: " + e);
        }
    }

    private ApiResponse route(Request request) {
        List<String> p = request.path();
        String method = request.method();
        int n = p.size();
        if (n == 0) {
            return only(method, "GET", () -> ok("{}"));
        }
        switch (p.get(0)) {
            case "schemas" -> {
                if (n == 2 && p.get(1).equals("types")) {
                    return only(method, "GET", () -> ok("[\"AVRO\"]"));
                }
                if ((n == 3 || n == 4 && p.get(3).equals("schema")) && p.get(1).equals("ids")) {
                    return only(method, "GET", () -> {
                        String schema = registry.schemaById(schemaId(p.get(2)));
                        if (n == 4) {
                            return ok(schema);
                        }
                        ObjectNode body = JSON.createObjectNode();
                        body.put("schema", schema);
                        return ok(body);
                    });
                }
            }
            case "subjects" -> {
                if (n == 1) {
                    return only(method, "GET", () -> ok(array(registry.subjects(flag(request, "deleted")))));
                }
                String subject = p.get(1);
                if (n == 2) {
                    return switch (method) {
                        case "POST" -> ok(registered(registry.lookup(subject, schemaOf(request), flag(request, "deleted"))));
                        case "DELETE" -> ok(array(registry.deleteSubject(subject, flag(request, "permanent"))));
                        default -> throw notAllowed(method, request);
                    };
                }
                if (p.get(2).equals("versions")) {
                    if (n == 3) {
                        return switch (method) {
                            case "GET" -> ok(array(registry.versions(subject, flag(request, "deleted"))));
                            case "POST" -> {
                                ObjectNode body = JSON.createObjectNode();
                                body.put("id", registry.register(subject, schemaOf(request)));
                                yield ok(body);
                            }
                            default -> throw notAllowed(method, request);
                        };
                    }
                    String version = p.get(3);
                    if (n == 4) {
                        return switch (method) {
                            case "GET" -> ok(registered(registry.version(subject, version, flag(request, "deleted"))));
                            case "DELETE" -> ok(String.valueOf(registry.deleteVersion(subject, version, flag(request, "permanent"))));
                            default -> throw notAllowed(method, request);
                        };
                    }
                    if (n == 5 && p.get(4).equals("schema")) {
                        return only(method, "GET", () -> ok(registry.version(subject, version, flag(request, "deleted")).schema()));
                    }
                }
            }
            case "compatibility" -> {
                if ((n == 4 || n == 5) && p.get(1).equals("subjects") && p.get(3).equals("versions")) {
                    return only(method, "POST", () -> {
                        List<String> problems = registry.testCompatibility(p.get(2), n == 5 ? p.get(4) : null, schemaOf(request));
                        ObjectNode body = JSON.createObjectNode();
                        body.put("is_compatible", problems.isEmpty());
                        if (flag(request, "verbose")) {
                            body.set("messages", array(problems));
                        }
                        return ok(body);
                    });
                }
            }
            case "config" -> {
                if (n == 1) {
                    return switch (method) {
                        case "GET" -> ok(level("compatibilityLevel", registry.globalLevel()));
                        case "PUT" -> {
                            CompatibilityLevel level = levelOf(request);
                            registry.setGlobalLevel(level);
                            yield ok(level("compatibility", level));
                        }
                        default -> throw notAllowed(method, request);
                    };
                }
                if (n == 2) {
                    String subject = p.get(1);
                    return switch (method) {
                        case "GET" -> ok(level("compatibilityLevel", registry.subjectLevel(subject, flag(request, "defaultToGlobal"))));
                        case "PUT" -> {
                            CompatibilityLevel level = levelOf(request);
                            registry.setSubjectLevel(subject, level);
                            yield ok(level("compatibility", level));
                        }
                        case "DELETE" -> ok(level("compatibilityLevel", registry.deleteSubjectLevel(subject)));
                        default -> throw notAllowed(method, request);
                    };
                }
            }
            default -> {
                // unknown first segment: 404 below
            }
        }
        throw new HttpRefusal(404, "HTTP 404 Not Found: " + method + " /" + String.join("/", p));
    }

    private interface Answer {
        ApiResponse get();
    }

    private static ApiResponse only(String method, String allowed, Answer answer) {
        if (!method.equals(allowed)) {
            throw new HttpRefusal(405, "HTTP 405 Method Not Allowed: " + method + " (expected: " + allowed + ")");
        }
        return answer.get();
    }

    private static HttpRefusal notAllowed(String method, Request request) {
        return new HttpRefusal(405, "HTTP 405 Method Not Allowed: " + method + " /" + String.join("/", request.path()));
    }

    private static int schemaId(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new RegistryException(RegistryException.SCHEMA_NOT_FOUND, "Schema " + text + " not found");
        }
    }

    private static boolean flag(Request request, String name) {
        List<String> values = request.query().get(name);
        return values != null && !values.isEmpty() && values.get(values.size() - 1).equalsIgnoreCase("true");
    }

    /** The {@code schema} of a register / lookup / compatibility body, checked for what this registry supports. */
    private static String schemaOf(Request request) {
        JsonNode body = body(request);
        JsonNode type = body.get("schemaType");
        if (type != null && !type.isNull() && !type.asText().equalsIgnoreCase("AVRO")) {
            throw RegistryException.invalidSchema("schemaType " + type.asText() + " is not supported (expected: AVRO)");
        }
        JsonNode references = body.get("references");
        if (references != null && !references.isNull() && !(references.isArray() && references.isEmpty())) {
            throw RegistryException.invalidSchema("schema references are not supported");
        }
        JsonNode schema = body.get("schema");
        if (schema == null || !schema.isTextual()) {
            throw RegistryException.invalidSchema("the body has no \"schema\" string");
        }
        return schema.asText();
    }

    private static CompatibilityLevel levelOf(Request request) {
        JsonNode level = body(request).get("compatibility");
        return CompatibilityLevel.parse(level == null || !level.isTextual() ? null : level.asText());
    }

    private static JsonNode body(Request request) {
        if (request.body() == null || request.body().length == 0) {
            throw new HttpRefusal(400, "Malformed JSON body: empty (expected: a JSON object)");
        }
        JsonNode node;
        try {
            node = JSON.readTree(request.body());
        } catch (IOException e) {
            throw new HttpRefusal(400, "Malformed JSON body: " + firstLine(e.getMessage()));
        }
        if (node == null || !node.isObject()) {
            throw new HttpRefusal(400, "Malformed JSON body: not a JSON object");
        }
        return node;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    private static ObjectNode registered(RegisteredSchema schema) {
        ObjectNode body = JSON.createObjectNode();
        body.put("subject", schema.subject());
        body.put("version", schema.version());
        body.put("id", schema.id());
        body.put("schema", schema.schema());
        return body;
    }

    private static ObjectNode level(String field, CompatibilityLevel level) {
        ObjectNode body = JSON.createObjectNode();
        body.put(field, level.name());
        return body;
    }

    private static ArrayNode array(List<?> values) {
        ArrayNode array = JSON.createArrayNode();
        for (Object value : values) {
            if (value instanceof Integer i) {
                array.add(i);
            } else {
                array.add(String.valueOf(value));
            }
        }
        return array;
    }

    private static ApiResponse ok(JsonNode body) {
        return ApiResponse.json(200, body.toString());
    }

    private static ApiResponse ok(String json) {
        return ApiResponse.json(200, json);
    }

    /** The {@code id} of a lookup answer (a subject version). */
    static int idOf(ApiResponse lookup) {
        try {
            return JSON.readTree(lookup.body()).path("id").asInt();
        } catch (IOException e) {
            throw new IllegalStateException("unreadable lookup answer", e);
        }
    }

    static ApiResponse error(int status, int code, String message) {
        ObjectNode body = JSON.createObjectNode();
        body.put("error_code", code);
        body.put("message", message);
        try {
            return ApiResponse.json(status, JSON.writeValueAsString(body));
        } catch (JsonProcessingException e) {
            return ApiResponse.json(status, "{\"error_code\":" + code + ",\"message\":\"error\"}");
        }
    }
}
