package io.healthmesh.probe.http;

/**
 * A redirect {@code Location} as it may appear in a probe's detail: without user info (credentials), query and
 * fragment (tokens travel there), without control characters, at most {@value #MAX_CHARS} characters. Details
 * are published to Kafka and shown to operators; a probe must not become a way to read what a server answers.
 */
final class SafeLocation {

    static final int MAX_CHARS = 200;

    private SafeLocation() {
    }

    static String of(String location) {
        if (location == null) {
            return "";
        }
        String s = location.trim();
        int cut = indexOfAny(s, '?', '#');
        boolean cutSomething = cut >= 0;
        if (cut >= 0) {
            s = s.substring(0, cut);
        }
        int scheme = s.indexOf("//");
        if (scheme >= 0) {
            int authorityEnd = s.indexOf('/', scheme + 2);
            String authority = authorityEnd < 0 ? s.substring(scheme + 2) : s.substring(scheme + 2, authorityEnd);
            int at = authority.lastIndexOf('@');
            if (at >= 0) {
                s = s.substring(0, scheme + 2) + authority.substring(at + 1)
                        + (authorityEnd < 0 ? "" : s.substring(authorityEnd));
            }
        }
        StringBuilder out = new StringBuilder(Math.min(s.length(), MAX_CHARS) + 4);
        for (int i = 0; i < s.length() && out.length() < MAX_CHARS; i++) {
            char c = s.charAt(i);
            out.append(c < 0x20 || c == 0x7f ? '?' : c);
        }
        if (out.length() < s.length()) {
            out.append("...");
        }
        return cutSomething ? out + " (query removed)" : out.toString();
    }

    private static int indexOfAny(String s, char a, char b) {
        int ia = s.indexOf(a);
        int ib = s.indexOf(b);
        return ia < 0 ? ib : ib < 0 ? ia : Math.min(ia, ib);
    }
}
