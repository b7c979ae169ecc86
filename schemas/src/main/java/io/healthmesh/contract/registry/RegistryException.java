package io.healthmesh.contract.registry;

import java.util.List;

/**
 * A refusal by the schema registry, carrying Confluent's error code (e.g. 40401, 42201, 409); the
 * HTTP status is the code's first three digits. Thrown by the registry logic and, with the code the
 * server answered, by the HTTP client, so callers handle one type whichever registry they talk to.
 */
public final class RegistryException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public static final int SUBJECT_NOT_FOUND = 40401;
    public static final int VERSION_NOT_FOUND = 40402;
    public static final int SCHEMA_NOT_FOUND = 40403;
    public static final int SUBJECT_SOFT_DELETED = 40404;
    public static final int SUBJECT_NOT_SOFT_DELETED = 40405;
    public static final int VERSION_SOFT_DELETED = 40406;
    public static final int VERSION_NOT_SOFT_DELETED = 40407;
    public static final int SUBJECT_LEVEL_COMPATIBILITY_NOT_CONFIGURED = 40408;
    public static final int INCOMPATIBLE_SCHEMA = 409;
    public static final int INVALID_SCHEMA = 42201;
    public static final int INVALID_VERSION = 42202;
    public static final int INVALID_COMPATIBILITY_LEVEL = 42203;
    public static final int INVALID_SUBJECT = 42208;
    public static final int STORE_ERROR = 50001;
    /** Not a registry code: the registry could not be reached or answered something unreadable. */
    public static final int UNREACHABLE = 50301;

    private final int errorCode;

    public RegistryException(int errorCode, String message) {
        super(message);
        this.errorCode = errorCode;
    }

    public RegistryException(int errorCode, String message, Throwable cause) {
        super(message, cause);
        this.errorCode = errorCode;
    }

    /** Confluent's error code, e.g. 40401. */
    public int errorCode() {
        return errorCode;
    }

    /** The HTTP status that goes with the code: its first three digits. */
    public int httpStatus() {
        return errorCode < 1000 ? errorCode : errorCode / 100;
    }

    static RegistryException subjectNotFound(String subject) {
        return new RegistryException(SUBJECT_NOT_FOUND, "Subject '" + subject + "' not found.");
    }

    static RegistryException versionNotFound(String subject, int version) {
        return new RegistryException(VERSION_NOT_FOUND, "Version " + version + " not found for subject '" + subject + "'.");
    }

    static RegistryException schemaNotFound(int id) {
        return new RegistryException(SCHEMA_NOT_FOUND, "Schema " + id + " not found");
    }

    static RegistryException schemaNotInSubject(String subject) {
        return new RegistryException(SCHEMA_NOT_FOUND, "Schema not found in subject '" + subject + "'");
    }

    static RegistryException subjectSoftDeleted(String subject) {
        return new RegistryException(SUBJECT_SOFT_DELETED,
                "Subject '" + subject + "' was soft deleted. Set permanent=true to delete permanently");
    }

    static RegistryException subjectNotSoftDeleted(String subject) {
        return new RegistryException(SUBJECT_NOT_SOFT_DELETED,
                "Subject '" + subject + "' was not deleted first before being permanently deleted");
    }

    static RegistryException versionSoftDeleted(String subject, int version) {
        return new RegistryException(VERSION_SOFT_DELETED, "Subject '" + subject + "' Version " + version
                + " was soft deleted. Set permanent=true to delete permanently");
    }

    static RegistryException versionNotSoftDeleted(String subject, int version) {
        return new RegistryException(VERSION_NOT_SOFT_DELETED, "Subject '" + subject + "' Version " + version
                + " was not deleted first before being permanently deleted");
    }

    static RegistryException subjectLevelNotConfigured(String subject) {
        return new RegistryException(SUBJECT_LEVEL_COMPATIBILITY_NOT_CONFIGURED,
                "Subject '" + subject + "' does not have subject-level compatibility configured");
    }

    static RegistryException incompatible(String subject, List<String> problems) {
        return new RegistryException(INCOMPATIBLE_SCHEMA, "Schema being registered is incompatible with an earlier schema for subject \""
                + subject + "\", details: " + problems);
    }

    /** 42201: the text is not a valid schema (or uses what this registry does not support). */
    public static RegistryException invalidSchema(String detail) {
        return new RegistryException(INVALID_SCHEMA, "Invalid schema: " + detail);
    }

    /** 42202: a version that is neither a positive 32-bit number nor {@code latest}. */
    public static RegistryException invalidVersion(String version) {
        return new RegistryException(INVALID_VERSION, "The specified version '" + version
                + "' is not a valid version id. Allowed values are between [1, 2^31-1] and the string \"latest\"");
    }

    static RegistryException invalidCompatibilityLevel(String level) {
        return new RegistryException(INVALID_COMPATIBILITY_LEVEL, "Invalid compatibility level: " + level
                + " (expected: one of NONE, BACKWARD, BACKWARD_TRANSITIVE, FORWARD, FORWARD_TRANSITIVE, FULL, FULL_TRANSITIVE)");
    }
}
