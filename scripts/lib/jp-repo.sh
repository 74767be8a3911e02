# Shared by the demo, the build-plugin suites and the instrument benchmark: JP's artifacts, built
# in the source tree `$root` (at the root POM's `$version`), in a throwaway local Maven repository.
# shellcheck shell=bash

# install_jp REPO VERSION MODULE...: puts what `mvn install` would (the POM, and the jar) of each
# MODULE (parent, runtime, engine, gradle-plugin, gradle-marker, maven-plugin) into the local
# repository REPO as VERSION; the POMs are rewritten to VERSION when it is not the built one.
# (Installing with -Dmaven.repo.local would download every Maven plugin again into REPO.)
install_jp() {
    local repo=$1 v=$2 module group artifact pom jar dir
    shift 2
    for module in "$@"; do
        group=org.jpprof jar=
        case $module in
            parent) artifact=jp-parent pom=pom.xml ;;
            runtime) artifact=jp-runtime pom=java-runtime/pom.xml jar=java-runtime/target ;;
            engine) artifact=jp-engine pom=engine/java/pom.xml jar=engine/java/target ;;
            gradle-plugin) artifact=jp-gradle-plugin pom=gradle-plugin/pom.xml jar=gradle-plugin/target ;;
            gradle-marker) group=org.jpprof.jp artifact=org.jpprof.jp.gradle.plugin pom=gradle-plugin/marker/pom.xml ;;
            maven-plugin) artifact=jp-maven-plugin pom=maven-plugin/pom.xml jar=maven-plugin/target ;;
            *) echo "install_jp: no module '$module'" >&2; return 2 ;;
        esac
        dir=$repo/${group//.//}/$artifact/$v
        mkdir -p "$dir" && sed "s/$version/$v/g" "$root/$pom" >"$dir/$artifact-$v.pom" || return
        if [[ -n $jar ]]; then cp "$root/$jar/$artifact-$version.jar" "$dir/$artifact-$v.jar" || return; fi
    done
}

# write_maven_settings FILE USER-REPO: Maven settings that read USER-REPO (a local repository such
# as ~/.m2/repository) as a remote one, before Maven Central, so that a build with a throwaway local
# repository takes Maven's own plugins from there; `org.jpprof` is a plugin group, so that
# `mvn jp:...` finds JP's plugin where a POM does not name it.
write_maven_settings() {
    cat >"$1" <<XML
<settings>
  <profiles>
    <profile>
      <id>user-repository</id>
      <repositories>
        <repository><id>user-repository</id><url>file://$2</url><snapshots><enabled>false</enabled></snapshots></repository>
      </repositories>
      <pluginRepositories>
        <pluginRepository><id>user-repository</id><url>file://$2</url><snapshots><enabled>false</enabled></snapshots></pluginRepository>
      </pluginRepositories>
    </profile>
  </profiles>
  <activeProfiles><activeProfile>user-repository</activeProfile></activeProfiles>
  <pluginGroups><pluginGroup>org.jpprof</pluginGroup></pluginGroups>
</settings>
XML
}
