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
class MarkdownView : public QTextBrowser
{
    Q_OBJECT

public:
    explicit MarkdownView(QWidget *parent = nullptr);

    // The host folder that the sandbox sees as /mnt/data.
    void setConversationFolder(const QString &folder);
    void setMarkdownText(const QString &markdown);
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
    void decorateCodeBlocks(const QStringList &languages);
    void fitImages();
    void updateHeight();
    void openLink(const QUrl &url);
    void loadRemoteImage(const QUrl &url);
    QString localPathFor(const QString &sandboxPath) const;

    QString m_markdown;
    QString m_folder;
    QStringList m_codeBlocks;
    QHash<QUrl, QImage> m_remoteImages; // fetched after the user asked
    QSet<QUrl> m_failedImages;
    QNetworkAccessManager *m_network = nullptr;
    int m_lastWidth = -1;
};

} // namespace Sandpiper
