// Wizard drafts through the real server: per project, revisioned (a stale save is a
// CONFLICT carrying the current draft), choices only (unknown keys such as data bytes are
// refused, naming the key), and restored after a server restart.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTestHome, startTestServer, type TestHome, type TestServer } from "@/server/testing/server-harness";

let home: TestHome;
let server: TestServer;

beforeAll(async () => {
  home = makeTestHome();
  server = await startTestServer({ home });
});
afterAll(async () => {
  await server?.stop();
});

const project = async (name: string) => (await server.client.projects.create.mutate({ name })).id;

describe("wizard drafts", () => {
  it("saves by revision and refuses a stale save with the current draft", async () => {
    const id = await project(`Drafts ${Date.now()}`);
    const empty = await server.client.drafts.get.query({ projectId: id });
    expect(empty.revision).toBe(0);
    expect(empty.data.step).toBe(0);

    const first = await server.client.drafts.save.mutate({ projectId: id, revision: 0, data: { step: 2, datasetId: "ds1", target: "species", mode: "quick", maxMinutes: 3 } });
    expect(first.revision).toBe(1);
    expect(first.data).toMatchObject({ step: 2, datasetId: "ds1", target: "species", maxMinutes: 3 });

    await expect(server.client.drafts.save.mutate({ projectId: id, revision: 0, data: { step: 1 } })).rejects.toMatchObject({
      data: { code: "CONFLICT", details: { current: { revision: 1 } } },
    });
    const second = await server.client.drafts.save.mutate({ projectId: id, revision: 1, data: { ...first.data, step: 4 } });
    expect(second.revision).toBe(2);
    expect((await server.client.drafts.get.query({ projectId: id })).data.step).toBe(4);
  });

  it("keeps one draft per project and stores choices only", async () => {
    const a = await project(`Draft A ${Date.now()}`);
    const b = await project(`Draft B ${Date.now()}`);
    await expect(
      server.client.drafts.save.mutate({ projectId: a, revision: 0, data: { step: 3, target: "price", bytes: "aGVsbG8=" } as never }),
    ).rejects.toMatchObject({ data: { code: "BAD_REQUEST" }, message: expect.stringMatching(/Unrecognized key: \\?"bytes/) });
    await server.client.drafts.save.mutate({ projectId: a, revision: 0, data: { step: 3, target: "price" } });
    await server.client.drafts.save.mutate({ projectId: b, revision: 0, data: { step: 1 } });
    const draftA = await server.client.drafts.get.query({ projectId: a });
    expect(draftA.data.target).toBe("price");
    expect(draftA.data).not.toHaveProperty("bytes");
    expect((await server.client.drafts.get.query({ projectId: b })).data.step).toBe(1);
    await expect(server.client.drafts.get.query({ projectId: "no-such-project" })).rejects.toMatchObject({ data: { code: "NOT_FOUND" } });
  });

  it("survives a server restart", async () => {
    const id = await project(`Draft restart ${Date.now()}`);
    await server.client.drafts.save.mutate({ projectId: id, revision: 0, data: { step: 5, mode: "improve", maxTrials: 7 } });
    await server.stop();
    server = await startTestServer({ home });
    const d = await server.client.drafts.get.query({ projectId: id });
    expect(d.revision).toBe(1);
    expect(d.data).toMatchObject({ step: 5, mode: "improve", maxTrials: 7 });
  });
});
