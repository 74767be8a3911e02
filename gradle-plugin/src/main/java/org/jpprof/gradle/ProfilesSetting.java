package org.jpprof.gradle;

import java.io.File;
import org.gradle.api.Project;
import org.gradle.api.file.ConfigurableFileTree;
import org.gradle.api.file.FileCollection;

/**
 * The profiles a task of JP's reads (jpReport, jpBaseline, jpCheck): none until the plugin gives
 * its convention (the runs of jpProfileTest) or the build script sets its own, which then wins.
 */
final class ProfilesSetting {
    private FileCollection profiles;
    private boolean set;
    /** The directory of the plugin's profiles, for messages; {@code null} when the build set them. */
    private File dir;

    ProfilesSetting(Project project) {
        profiles = project.files();
    }

    FileCollection get() {
        return profiles;
    }

    /** The build script's profiles. */
    void set(FileCollection profiles) {
        this.profiles = profiles;
        this.set = true;
        this.dir = null;
    }

    /** The plugin's profiles, in {@code dir}, unless the build script set its own. */
    void convention(FileCollection profiles, File dir) {
        if (!set) {
            this.profiles = profiles;
            this.dir = dir;
        }
    }

    /** Where the profiles were looked for, {@code " in <dir>"}, when they are a directory's files. */
    String where() {
        if (dir != null) {
            return " in " + dir;
        }
        return profiles instanceof ConfigurableFileTree ? " in " + ((ConfigurableFileTree) profiles).getDir() : "";
    }
}
