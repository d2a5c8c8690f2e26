// Debian's redis-server for the gateway's Redis tests: started by the test on 127.0.0.1 on a free port, with
// nothing saved to disk, and stopped by its PID. Found on PATH; when missing, scripts/ensure-redis.sh installs it
// if it can (a root shell with apt-get), else the tests skip and say so (fail, under CI=true).
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { Redis } from "ioredis";
import { findComponent, locate, REDIS } from "../../support/components";
import { freePort } from "../../support/free-port";

const ROOT = path.resolve(__dirname, "../../..");

/**
 * The redis-server binary, installed first if it is missing and can be (scripts/ensure-redis.sh). Still missing:
 * undefined after a line saying so, for the file to skip its Redis tests; under CI=true, throws that sentence.
 */
export function redisServerBinary(): string | undefined {
  if (locate(REDIS) === undefined) {
    try {
      execFileSync("bash", [path.join(ROOT, "scripts/ensure-redis.sh")], { stdio: "inherit" });
    } catch {
      // It said why; findComponent says what that means for this file.
    }
  }
  return findComponent(REDIS);
}

export interface RunningRedis {
  url: string;
  port: number;
  pid: number;
  /** Kills the server by its PID (SIGKILL: as a crash or a lost host would) and waits for its exit. */
  kill(): Promise<void>;
}

/** Starts redis-server on `port` (default: a free one) and waits until it answers PING. */
export async function startRedis(binary: string, port?: number): Promise<RunningRedis> {
  const p = port ?? (await freePort());
  const child: ChildProcess = spawn(
    binary,
    ["--port", String(p), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  const pid = child.pid;
  if (pid === undefined) throw new Error("redis-server did not start");
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const probe = new Redis(p, "127.0.0.1", {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on("error", () => {});
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await probe.connect();
      await probe.ping();
      break;
    } catch {
      if (Date.now() > deadline || child.exitCode !== null) {
        process.kill(pid, "SIGKILL");
        throw new Error(`redis-server did not answer on 127.0.0.1:${p}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  probe.disconnect();
  return {
    url: `redis://127.0.0.1:${p}`,
    port: p,
    pid,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) process.kill(pid, "SIGKILL");
      await exited;
    },
  };
}

/** Every key of the Redis and the text of its value (strings, hashes, sorted sets), for leak checks. */
export async function redisContents(url: string): Promise<Array<{ key: string; text: string }>> {
  const r = new Redis(url);
  try {
    const out: Array<{ key: string; text: string }> = [];
    for (const key of await r.keys("*")) {
      const type = await r.type(key);
      let text = "";
      if (type === "string") text = (await r.get(key)) ?? "";
      else if (type === "hash") text = JSON.stringify(await r.hgetall(key));
      else if (type === "zset") text = JSON.stringify(await r.zrange(key, 0, "-1"));
      else text = `(${type})`;
      out.push({ key, text });
    }
    return out;
  } finally {
    r.disconnect();
  }
}
