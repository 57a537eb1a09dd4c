#pragma once

#include "chat/markdowncontext.h"

#include <QSet>
#include <QTextBrowser>
#include <QTimer>

class QTextCursor;

namespace Sandpiper {

class MathObject;

// Shows Markdown (GitHub dialect) as rich text that grows to fit its content: code blocks
// highlighted by KSyntaxHighlighting with a copy link each, images from the conversation's
// sandbox folder inline (read through SandboxFolder and SandboxImage; no other local file is ever
// loaded, whatever the Markdown or its raw HTML names), remote images once the user asked for
// them (the context's RemoteImages fetch them), web links opened in the system browser, sandbox
// files opened through SandboxFileActions. TeX formulas ($…$, $$…$$, \(…\), \[…\]) are drawn
// by MathObject with the context's renderer; copying a selection copies them as their TeX. What
// the text becomes before Qt reads it is MarkdownSource's work.
//
// An answer that streams in is rendered a paragraph at a time into the same document: finished
// paragraphs are rendered once and stay; only the paragraph still being written is rendered
// again as text arrives, and only its part of the view is laid out and painted again.
class MarkdownView : public QTextBrowser
{
    Q_OBJECT

public:
    explicit MarkdownView(const MarkdownContext &context = {}, QWidget *parent = nullptr);

    // The host folder that the sandbox sees as /mnt/data.
    void setConversationFolder(const QString &folder);
    // Off: the text is shown as typed, each line as it is, nothing in it read as Markdown or TeX
    // (the user's own messages). On by default.
    void setTextIsMarkdown(bool markdown);
    void setMarkdownText(const QString &markdown);
    // TEXT streamed in after what is shown.
    void appendStreamingMarkdown(const QString &text);
    QString markdownText() const { return m_markdown; }
    // The source of the code blocks, in order (what their copy links copy).
    QStringList codeBlocks() const { return m_codeBlocks; }
    // The TeX of the formulas shown.
    QSet<QString> formulas() const { return m_formulas; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // MARKDOWN as this view gives it to Qt's reader (see MarkdownSource). Public for tests.
    QString preprocess(const QString &markdown, QStringList *codeBlocks, QStringList *languages) const;

Q_SIGNALS:
    void codeCopied(int index);

protected:
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;
    QVariant loadResource(int type, const QUrl &name) override;
    bool viewportEvent(QEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    QMimeData *createMimeDataFromSelection() const override;

private:
    void render();
    // A part of the Markdown rendered on its own: its blocks begin at block FIRST of DOCUMENT.
    struct Chunk {
        QTextDocument &document;
        int first = 0;
        int blocks() const { return document.isEmpty() ? 0 : document.blockCount() - first; }
    };
    // Renders MARKDOWN into its own document CHUNK, numbering its code blocks after those in
    // CODEBLOCKS and LANGUAGES, to which it adds its own; ATSTART when it is shown first in the
    // view. Returns the number of the chunk's first block of its own.
    int renderChunk(const QString &markdown, bool atStart, QTextDocument &chunk, QStringList *codeBlocks,
                    QStringList *languages);
    // Shows FINISHED (paragraphs rendered for good) and TAIL (the one still being written) in
    // place of everything after m_tailPosition, in one edit that keeps the blocks already shown
    // the same: only what changed is laid out and painted again.
    void showStreamed(const Chunk &finished, const Chunk &tail);
    // Appends CHUNK from its block FIRST on at the end of the document, in a block of its own.
    void appendChunk(QTextCursor &cursor, QTextDocument &chunk, int first);
    // The formula tokens of MarkdownSource become MathObject characters.
    void presentFormulas(QTextDocument *document);
    // Lays out again what a formula drawn since changed.
    void formulaFinished(const QString &tex);
    // The format of the formula at POINT of the viewport, or an invalid one.
    QTextFormat formulaAt(const QPoint &point) const;
    void decorateCodeBlocks(QTextDocument *document, const QStringList &languages) const;
    void fitImages(QTextDocument *document);
    void updateHeight();
    void openLink(const QUrl &url);
    void remoteImageFinished(const QUrl &url);
    // The name inside the conversation's folder of a local file URL, or empty when it is outside.
    QString sandboxNameOf(const QUrl &url) const;

    MarkdownContext m_context;
    QString m_markdown;
    bool m_textIsMarkdown = true;
    QString m_folder;
    QStringList m_codeBlocks;
    // While streaming: how much of m_markdown is rendered for good, with its code blocks and their
    // languages, and where in the document the paragraph still being written begins.
    qsizetype m_frozenLength = 0;
    QStringList m_frozenCodeBlocks;
    QStringList m_frozenLanguages;
    int m_tailPosition = 0;
    MathObject *m_math = nullptr;
    QSet<QString> m_formulas;
    QTimer m_formulaLayout; // formulas drawn close together are laid out once
    int m_lastWidth = -1;
    qreal m_layoutWidth = -1;
};

} // namespace Sandpiper
