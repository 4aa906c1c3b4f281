import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * How DynamoDB Local is launched: not through its own `main`, which binds every interface (Jetty's
 * `new Server(port)`) and has no option to bind one, but through Jetty's XmlConfiguration, which ships
 * in the same jar's libraries. The document below builds the same handlers the jar's `main` builds
 * and puts them behind a connector on 127.0.0.1 only, answering only requests whose Host is a
 * loopback name (a web page reaching the port through DNS rebinding gets 404) and sending no CORS
 * headers (the jar's default is `*`: any page could read the table from a browser). No telemetry
 * client is created at all.
 *
 * The JVM also watches its standard input, a pipe from the Node process that started it: when that
 * process exits for any reason, `kill -9` included, the pipe closes and the JVM exits, so no emulator
 * outlives its server. Jetty's threads are daemons, so a failed bind ends the JVM instead of leaving it
 * running with nothing to serve.
 */
const LAUNCHER_XML = `<?xml version="1.0"?>
<!DOCTYPE Configure PUBLIC "-//Jetty//Configure//EN" "http://www.eclipse.org/jetty/configure_9_3.dtd">
<Configure id="Server" class="org.eclipse.jetty.server.Server">
  <Get name="threadPool"><Set name="daemon">true</Set></Get>
  <Call name="addConnector">
    <Arg>
      <New class="org.eclipse.jetty.server.ServerConnector">
        <Arg><Ref refid="Server"/></Arg>
        <Set name="host">127.0.0.1</Set>
        <Set name="port"><Property name="tn.port"/></Set>
      </New>
    </Arg>
  </Call>
  <Set name="handler">
    <New class="org.eclipse.jetty.server.handler.ContextHandler">
      <Set name="virtualHosts"><Array type="String"><Item>127.0.0.1</Item><Item>localhost</Item></Array></Set>
      <Set name="handler">
        <New class="com.amazonaws.services.dynamodbv2.local.server.LocalDynamoDBServerHandler">
          <Arg>
            <New class="com.amazonaws.services.dynamodbv2.local.server.LocalDynamoDBRequestHandler">
              <Arg type="int">0</Arg>
              <Arg type="boolean"><Property name="tn.inMemory"/></Arg>
              <Arg><Property name="tn.dbPath"/></Arg>
              <Arg type="boolean">true</Arg>
              <Arg type="boolean">false</Arg>
            </New>
          </Arg>
          <Arg type="String"></Arg>
        </New>
      </Set>
    </New>
  </Set>
  <Call name="start"/>
  <Get class="java.lang.System" name="in">
    <Call name="transferTo"><Arg><Call class="java.io.OutputStream" name="nullOutputStream"/></Arg></Call>
  </Get>
  <Call class="java.lang.System" name="exit"><Arg type="int">0</Arg></Call>
</Configure>
`;

const LAUNCHER_FILE = 'tutor-nexus-loopback.xml';

/** Writes the launcher document next to the jar (once per content: a rename makes it appear whole). */
function launcherFile(emulatorDir: string): string {
  const file = path.join(emulatorDir, LAUNCHER_FILE);
  if (!existsSync(file) || readFileSync(file, 'utf8') !== LAUNCHER_XML) {
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, LAUNCHER_XML);
    renameSync(partial, file);
  }
  return file;
}

/** The JVM's arguments after the JVM flags: DynamoDB Local on 127.0.0.1:port, in memory or on dbPath. */
export function launcherArgs(emulatorDir: string, options: { port: number; dbPath?: string }): string[] {
  return [
    `-Djava.library.path=${path.join(emulatorDir, 'DynamoDBLocal_lib')}`,
    '-cp',
    path.join(emulatorDir, 'DynamoDBLocal.jar'),
    'org.eclipse.jetty.xml.XmlConfiguration',
    `tn.port=${options.port}`,
    `tn.inMemory=${options.dbPath === undefined}`,
    // In memory, the jar wants no path at all: an unset property is null.
    ...(options.dbPath === undefined ? [] : [dbPathArgument(options.dbPath)]),
    launcherFile(emulatorDir),
  ];
}

/** The argument naming a database directory on an emulator's command line (how an orphan is recognised). */
export const dbPathArgument = (dbPath: string) => `tn.dbPath=${dbPath}`;
