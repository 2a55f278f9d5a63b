import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { HTML_EXPORT_CONFIRM_CHARS } from '@taleloom/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders, createQueryClient } from '../../../app/providers';
import { jsonResponse, mockFetch, storeLoggedInUser, testUser } from '../../../test/render-app';
import { ExportMenu } from './export-menu';

const clicked: string[] = [];
const ok = <T,>(data: T) => ({ status: 'success', message: 'ok', data });

function renderMenu(content: string, storyId?: string) {
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <ExportMenu content={content} name="Rain" storyId={storyId} />
    </AppProviders>,
  );
}

async function choose(format: string) {
  await act(async () => fireEvent.click(screen.getByTestId('toolbar-export')));
  await act(async () => fireEvent.click(await screen.findByTestId(`export-${format}`)));
}

describe('export menu', () => {
  beforeEach(() => {
    clicked.length = 0;
    storeLoggedInUser();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it('names the file from Content-Disposition, or falls back to {product}-{story}-{timestamp}.{ext}', async () => {
    let withHeader = true;
    const fetchMock = mockFetch((url) =>
      url !== '/api/export'
        ? jsonResponse(ok(testUser))
        : new Response('file', {
          status: 200,
          headers: withHeader ? { 'Content-Disposition': `attachment; filename="x.md"; filename*=UTF-8''${encodeURIComponent('织梦-雨.md')}` } : {},
        }),
    );
    renderMenu('Some text');
    await choose('markdown');
    await waitFor(() => expect(clicked).toEqual(['织梦-雨.md']));
    const body = JSON.parse(String(fetchMock.mock.calls.find(([url]) => url === '/api/export')![1]!.body));
    expect(body).toEqual({ content: 'Some text', format: 'markdown', name: 'Rain', language: 'en' });
    withHeader = false;
    await choose('docx');
    await waitFor(() => expect(clicked[1]).toMatch(/^TaleLoom-Rain-\d{8}-\d{6}\.docx$/));
  });

  it("exports a story by its id, without uploading its text", async () => {
    const fetchMock = mockFetch((url) => (url === '/api/export' ? new Response('file', { status: 200 }) : jsonResponse(ok(testUser))));
    renderMenu('A long text', 'f'.repeat(24));
    await choose('txt');
    await waitFor(() => expect(clicked).toHaveLength(1));
    const body = JSON.parse(String(fetchMock.mock.calls.find(([url]) => url === '/api/export')![1]!.body));
    expect(body).toEqual({ format: 'txt', name: 'Rain', story_id: 'f'.repeat(24), language: 'en' });
  });

  it('asks before exporting HTML over 100000 characters', async () => {
    const fetchMock = mockFetch((url) => (url === '/api/export' ? new Response('<html>', { status: 200 }) : jsonResponse(ok(testUser))));
    const exportCalls = () => fetchMock.mock.calls.filter(([url]) => url === '/api/export').length;
    renderMenu('x'.repeat(HTML_EXPORT_CONFIRM_CHARS + 1));
    await choose('html');
    expect((await screen.findAllByText('Export a long web page?')).length).toBeGreaterThan(0);
    expect(exportCalls()).toBe(0);
    await act(async () => fireEvent.click(document.querySelector('.ant-modal-confirm-btns .ant-btn-primary')!));
    await waitFor(() => expect(exportCalls()).toBe(1));
  });

  it('says "Export failed" when the export fails, in both languages', async () => {
    mockFetch((url) =>
      url === '/api/export'
        ? new Response(JSON.stringify({ status: 'error', code: 'EXPORT_FAILED', message: 'x' }), { status: 500 })
        : jsonResponse(ok(testUser)),
    );
    const { i18n } = await import('../../../lib/i18n');
    for (const [lang, text] of [
      ['en', 'Export failed. Please try again.'],
      ['zh-CN', '导出失败，请重试。'],
    ] as const) {
      await i18n.changeLanguage(lang);
      const { unmount } = renderMenu('text');
      await choose('rtf');
      expect(await screen.findByText(text)).toBeInTheDocument();
      unmount();
    }
    expect(clicked).toEqual([]);
  });
});
