package io.healthmesh.core.target;

/** How values appear in violation messages, and the character checks the bounds share. */
final class Texts {

    private static final int SHOWN_CHARS = 40;

    private Texts() {
    }

    /** The value quoted, control characters escaped, long values cut (with their length). */
    static String show(String value) {
        if (value == null) {
            return "null";
        }
        String escaped = escape(shortened(value));
        return value.length() > SHOWN_CHARS
                ? "\"" + escaped + "...\" (" + value.length() + " characters)"
                : "\"" + escaped + "\"";
    }

    /** At most the first 40 characters, escaped: a field name built from a value stays short. */
    static String shortened(String value) {
        return escape(value.length() > SHOWN_CHARS ? value.substring(0, SHOWN_CHARS) : value);
    }

    /** True when {@code value} has no ISO control character. */
    static boolean printable(String value) {
        return value.chars().noneMatch(Character::isISOControl);
    }

    /** True when every surrogate is paired (the text encodes to UTF-8 and back unchanged). */
    static boolean wellFormed(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= value.length() || !Character.isLowSurrogate(value.charAt(i + 1))) {
                    return false;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    static String escape(String value) {
        StringBuilder sb = new StringBuilder(value.length());
        for (char c : value.toCharArray()) {
            switch (c) {
                case '\r' -> sb.append("\\r");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '"' -> sb.append("\\\"");
                default -> {
                    if (Character.isISOControl(c)) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.toString();
    }
}
