#pragma once

#include <QHash>
#include <QImage>
#include <QSet>
#include <QTextBrowser>

class QNetworkAccessManager;

namespace Sandpiper {

// Shows Markdown (GitHub dialect) as rich text that grows to fit its content: code blocks
// highlighted by KSyntaxHighlighting with a copy link each, images from the conversation's
// sandbox folder inline, remote images only after the user asks (they can leak data), links
// opened in the system browser.
//
// An answer that streams in is rendered a paragraph at a time into the same document: finished
// paragraphs are rendered once and stay; only the paragraph still being written is rendered
// again as text arrives, and only its part of the view is laid out and painted again.
class MarkdownView : public QTextBrowser
{
    Q_OBJECT

public:
    explicit MarkdownView(QWidget *parent = nullptr);

    // The host folder that the sandbox sees as /mnt/data.
    void setConversationFolder(const QString &folder);
    void setMarkdownText(const QString &markdown);
    // MARKDOWN is what has streamed in so far: it extends what was shown before.
    void setStreamingMarkdown(const QString &markdown);
    QString markdownText() const { return m_markdown; }
    // The source of the code blocks, in order (what their copy links copy).
    QStringList codeBlocks() const { return m_codeBlocks; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // Rewrites what must not be rendered as is: sandbox image paths become local file URLs,
    // remote images become "load image" links, fenced code gets a header with a copy link.
    // Public for tests.
    QString preprocess(const QString &markdown, QStringList *codeBlocks, QStringList *languages) const;

Q_SIGNALS:
    void codeCopied(int index);

protected:
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;
    QVariant loadResource(int type, const QUrl &name) override;

private:
    void render();
    // Renders MARKDOWN into its own document, numbering its code blocks after those in
    // CODEBLOCKS and LANGUAGES, to which it adds its own.
    void renderChunk(const QString &markdown, QTextDocument &chunk, QStringList *codeBlocks, QStringList *languages);
    // Replaces everything from POSITION on with CHUNK, in a block of its own after POSITION.
    void replaceFrom(int position, const QTextDocument &chunk);
    void decorateCodeBlocks(QTextDocument *document, const QStringList &languages) const;
    void fitImages(QTextDocument *document);
    void updateHeight();
    void openLink(const QUrl &url);
    void loadRemoteImage(const QUrl &url);
    QString localPathFor(const QString &sandboxPath) const;

    QString m_markdown;
    QString m_folder;
    QStringList m_codeBlocks;
    // While streaming: how much of m_markdown is rendered for good, with its code blocks and their
    // languages, and where in the document the paragraph still being written begins.
    qsizetype m_frozenLength = 0;
    QStringList m_frozenCodeBlocks;
    QStringList m_frozenLanguages;
    int m_tailPosition = 0;
    QHash<QUrl, QImage> m_remoteImages; // fetched after the user asked
    QSet<QUrl> m_failedImages;
    QNetworkAccessManager *m_network = nullptr;
    int m_lastWidth = -1;
    qreal m_layoutWidth = -1;
};

} // namespace Sandpiper
