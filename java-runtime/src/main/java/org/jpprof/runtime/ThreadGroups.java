package org.jpprof.runtime;

/**
 * Thread groups of the profile format (not {@link java.lang.ThreadGroup}): the threads whose names
 * differ only in their numbers, such as the threads of one pool.
 */
final class ThreadGroups {
    private ThreadGroups() {}

    /** The group of threads without a name (virtual threads have none unless given one). */
    static final String UNNAMED = "(unnamed)";
    /** The group of the threads whose groups an agent no longer keeps apart. */
    static final String OTHER = "(other threads)";

    /**
     * The group of a thread named {@code name}: the name with every run of ASCII digits replaced
     * by one {@code #}. A plain loop, and no copy for a name without digits: it runs once per
     * thread, and threads may be virtual threads by the million.
     */
    static String of(String name) {
        if (name.isEmpty()) return UNNAMED;
        int firstDigit = 0;
        while (firstDigit < name.length() && !isAsciiDigit(name.charAt(firstDigit))) firstDigit++;
        if (firstDigit == name.length()) return name;
        StringBuilder group = new StringBuilder(name.length());
        group.append(name, 0, firstDigit);
        boolean inDigits = false;
        for (int i = firstDigit; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!isAsciiDigit(c)) {
                group.append(c);
                inDigits = false;
            } else if (!inDigits) {
                group.append('#');
                inDigits = true;
            }
        }
        return group.toString();
    }

    private static boolean isAsciiDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
