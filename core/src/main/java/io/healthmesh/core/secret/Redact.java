package io.healthmesh.core.secret;

import java.util.regex.Pattern;

/**
 * Takes secrets out of text that may be logged or shown (BEHAVIOUR.md section 11): the user info of every URL in it
 * ({@code http://user:pass@host} becomes {@code http://***@host}), so that a configuration print, an error
 * message or a detail can name a registry or broker without its credentials.
 */
public final class Redact {

    /** scheme://userinfo@ : the user info runs to the first '@' before any '/', '?' or '#'. */
    private static final Pattern USER_INFO = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*://)[^/?#@\\s]*@");

    private Redact() {
    }

    /** {@code text} with the user info of every URL in it replaced by {@code ***}; null stays null. */
    public static String userInfo(String text) {
        return text == null ? null : USER_INFO.matcher(text).replaceAll("$1***@");
    }
}
