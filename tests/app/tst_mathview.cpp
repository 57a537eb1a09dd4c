// Formulas in the chat (issue 17): drawn by the real renderer in the sandbox image when they are
// painted, shown as their TeX until then and when they cannot be drawn, copied as TeX, in light
// and dark; with SANDPIPER_SCREENSHOT_DIR set it also saves their pictures.
#include "dockertest.h"
#include "screenshot.h"

#include <chat/markdownview.h>
#include <chat/mathobject.h>
#include <math/mathrenderer.h>

#include <QAbstractTextDocumentLayout>
#include <QAccessible>
#include <QApplication>
#include <QClipboard>
#include <QScrollArea>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QVBoxLayout>

using namespace Sandpiper;

namespace {

const QString answer =
    QStringLiteral("The standard deviation is $\\sigma = \\sqrt{\\frac{1}{N}\\sum_{i=1}^{N} (x_i-\\mu)^2}$, where "
                   "\\(\\mu\\) is the mean. It costs $5 and $10 to compute it by hand.\n\n"
                   "$$\n\\int_0^\\infty e^{-x^2}\\,dx = \\frac{\\sqrt{\\pi}}{2}\n$$\n\n"
                   "Euler: \\[e^{i\\pi} + 1 = 0\\] and `$not math$` in code.");

// The formulas of VIEW's document, in order, with their formats.
QList<QTextFormat> formulasOf(const MarkdownView &view)
{
    QList<QTextFormat> formulas;
    for (QTextBlock block = view.document()->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            if (MathObject::isFormula(it.fragment().charFormat()))
                formulas << it.fragment().charFormat();
        }
    }
    return formulas;
}

int countState(MathRenderer &renderer, const QStringList &texts, MathRenderer::State state)
{
    return int(std::count_if(texts.cbegin(), texts.cend(),
                             [&](const QString &tex) { return renderer.formula(tex).state == state; }));
}

// What Ctrl+C after Ctrl+A puts on the clipboard.
QString copied(MarkdownView &view)
{
    view.selectAll();
    view.copy();
    return QApplication::clipboard()->text();
}

QString toolTipOf(const MarkdownView &view, const QTextFormat &format)
{
    const MathObject *math = view.findChild<MathObject *>();
    return math ? math->toolTip(format) : QString();
}

} // namespace

class TestMathView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void withoutARendererFormulasAreTheirTex()
    {
        MarkdownView view;
        view.resize(600, 100);
        view.setMarkdownText(answer);
        const QList<QTextFormat> formulas = formulasOf(view);
        QCOMPARE(formulas.size(), 4);
        QCOMPARE(MathObject::tex(formulas[0]),
                 QStringLiteral("\\sigma = \\sqrt{\\frac{1}{N}\\sum_{i=1}^{N} (x_i-\\mu)^2}"));
        QVERIFY(!MathObject::isDisplay(formulas[0]));
        QCOMPARE(MathObject::tex(formulas[2]),
                 QStringLiteral("\\int_0^\\infty e^{-x^2}\\,dx = \\frac{\\sqrt{\\pi}}{2}"));
        QVERIFY(MathObject::isDisplay(formulas[2]));
        // Prices and code stay text; nothing is lost: a copy holds every formula as TeX.
        const QString text = view.document()->toPlainText();
        QVERIFY(text.contains(QLatin1String("It costs $5 and $10 to compute")));
        QVERIFY(text.contains(QLatin1String("$not math$")));
        const QString copy = copied(view);
        QVERIFY2(copy.contains(QLatin1String("is $\\sigma = \\sqrt{\\frac{1}{N}\\sum_{i=1}^{N} (x_i-\\mu)^2}$, where")),
                 qPrintable(copy));
        QVERIFY(copy.contains(QLatin1String("$$\\int_0^\\infty e^{-x^2}\\,dx = \\frac{\\sqrt{\\pi}}{2}$$")));
        QVERIFY(!copy.contains(QChar::ObjectReplacementCharacter));
        QVERIFY(view.grab().toImage().width() > 0); // painted as code, without a renderer
    }

    // A screen reader reads each formula as its TeX, where the view has one character.
    void aScreenReaderReadsFormulasAsTex()
    {
        MarkdownView view;
        view.resize(600, 200);
        view.setMarkdownText(QStringLiteral("Let $x^2$ be, and\n\n$$\\frac{a}{b}$$\n\nend."));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QAccessibleInterface *accessible = QAccessible::queryAccessibleInterface(&view);
        QVERIFY(accessible);
        QAccessibleTextInterface *text = accessible->textInterface();
        QVERIFY(text);
        QVERIFY(accessible->state().readOnly);
        const QString read = QStringLiteral("Let $x^2$ be, and\n$$\\frac{a}{b}$$\nend.");
        QCOMPARE(text->characterCount(), read.size());
        QCOMPARE(text->text(0, text->characterCount()), read);
        QCOMPARE(accessible->text(QAccessible::Value), read);
        QCOMPARE(text->text(6, 12), QStringLiteral("^2$ be")); // from inside a formula
        QCOMPARE(text->text(18, 33), QStringLiteral("$$\\frac{a}{b}$$"));
        QCOMPARE(text->text(34, 38), QStringLiteral("end."));

        // The caret and selections, in what is read and in the view.
        QTextCursor caret = view.textCursor();
        caret.setPosition(5); // after "Let " and the formula
        view.setTextCursor(caret);
        QCOMPARE(text->cursorPosition(), 9);
        text->setCursorPosition(12);
        QCOMPARE(view.textCursor().position(), 8);
        QCOMPARE(text->cursorPosition(), 12);
        text->setSelection(0, 5, 7); // inside the formula's TeX: all of it
        QCOMPARE(view.textCursor().selectedText(), QString(QChar::ObjectReplacementCharacter));
        QCOMPARE(text->selectionCount(), 1);
        int start = -1;
        int end = -1;
        text->selection(0, &start, &end);
        QCOMPARE(start, 4);
        QCOMPARE(end, 9);
        text->removeSelection(0);
        QCOMPARE(text->selectionCount(), 0);

        // Where the characters are: the formula is as wide as its box.
        const QRect letter = text->characterRect(0);
        const QRect formula = text->characterRect(4);
        QVERIFY2(formula.width() > 2 * letter.width(),
                 qPrintable(QStringLiteral("%1 and %2").arg(formula.width()).arg(letter.width())));
        QCOMPARE(text->offsetAtPoint(formula.topLeft() + QPoint(2, formula.height() / 2)), 4);
        QCOMPARE(text->offsetAtPoint(text->characterRect(11).topLeft() + QPoint(1, letter.height() / 2)), 11);
    }

    void formulasAreDrawnWhenPainted()
    {
        SANDPIPER_REQUIRE_DOCKER();
        QTemporaryDir cache;
        MathRenderer renderer(Test::sandboxImage(), cache.path());
        MarkdownView view({&renderer});
        view.resize(640, 100);
        view.setMarkdownText(answer);
        const QStringList texts = view.formulas().values();
        QCOMPARE(texts.size(), 4);
        // Nothing is asked for before it is painted.
        QCOMPARE(renderer.pendingCount(), 0);
        const int codeHeight = view.height();
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.grab();
        QTRY_COMPARE_WITH_TIMEOUT(countState(renderer, texts, MathRenderer::State::Drawn), 4, 60000);
        // Laid out again as math: the display formula is centred in its paragraph, and taller.
        QTRY_VERIFY(view.height() != codeHeight);
        const QList<QTextFormat> formulas = formulasOf(view);
        QCOMPARE(toolTipOf(view, formulas[0]), MathObject::source(formulas[0]));
        for (QTextBlock block = view.document()->begin(); block.isValid(); block = block.next()) {
            if (block.text() == QString(QChar::ObjectReplacementCharacter))
                QCOMPARE(block.blockFormat().alignment() & Qt::AlignHorizontal_Mask, Qt::AlignHCenter);
        }
        view.clearFocus(); // no text cursor in the picture
        Test::saveScreenshot(&view, QStringLiteral("math-light.png"));
        // Drawn, they are still copied as their TeX.
        QVERIFY(copied(view).contains(QLatin1String("Euler: $$e^{i\\pi} + 1 = 0$$ and")));

        // Dark: the same formulas in the dark theme's text colour.
        QPalette dark;
        dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
        dark.setColor(QPalette::Window, QColor(0x1e, 0x1e, 0x1e));
        dark.setColor(QPalette::Text, QColor(0xf0, 0xf0, 0xf0));
        dark.setColor(QPalette::WindowText, QColor(0xf0, 0xf0, 0xf0));
        dark.setColor(QPalette::AlternateBase, QColor(0x2d, 0x2d, 0x2d));
        QWidget frame;
        frame.setPalette(dark);
        frame.setAutoFillBackground(true);
        auto *layout = new QVBoxLayout(&frame);
        auto *darkView = new MarkdownView({&renderer});
        layout->addWidget(darkView);
        frame.resize(660, 200);
        darkView->setMarkdownText(answer);
        frame.show();
        QVERIFY(QTest::qWaitForWindowExposed(&frame));
        QTRY_VERIFY(darkView->height() > 60);
        darkView->clearFocus(); // no text cursor in the picture
        const QImage image = frame.grab().toImage();
        int light = 0;
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x)
                light += qGray(image.pixel(x, y)) > 200;
        }
        QVERIFY2(light > 200, "the formulas are not drawn in the dark theme's text colour");
        Test::saveScreenshot(&frame, QStringLiteral("math-dark.png"));
    }

    void badTexIsCodeWithTheErrorOnHover()
    {
        SANDPIPER_REQUIRE_DOCKER();
        MathRenderer renderer(Test::sandboxImage(), QString());
        MarkdownView view({&renderer});
        view.resize(500, 60);
        view.setMarkdownText(QStringLiteral("Broken: $\\frac{1}$ and fine: $x^2$"));
        view.show();
        view.grab();
        QTRY_COMPARE_WITH_TIMEOUT(renderer.formula(QStringLiteral("\\frac{1}")).state, MathRenderer::State::Failed,
                                  60000);
        QTRY_COMPARE(renderer.formula(QStringLiteral("x^2")).state, MathRenderer::State::Drawn);
        const QList<QTextFormat> formulas = formulasOf(view);
        const QString tip = toolTipOf(view, formulas[0]);
        QVERIFY2(tip.contains(QLatin1String("cannot be drawn")) && tip.contains(QLatin1String("frac")),
                 qPrintable(tip));
        view.clearFocus();
        Test::saveScreenshot(&view, QStringLiteral("math-bad-tex-light.png"));
        QVERIFY(copied(view).contains(QLatin1String("Broken: $\\frac{1}$ and fine: $x^2$")));
    }

    void withTheSandboxOffFormulasStayTex()
    {
        MathRenderer renderer(Test::sandboxImage(), QString());
        renderer.setEnabled(false);
        MarkdownView view({&renderer});
        view.resize(500, 60);
        view.setMarkdownText(QStringLiteral("Off: $x^2$"));
        view.grab();
        QCOMPARE(renderer.formula(QStringLiteral("x^2")).state, MathRenderer::State::Unavailable);
        QVERIFY(toolTipOf(view, formulasOf(view).first()).contains(QLatin1String("sandbox is off")));
        QCOMPARE(renderer.pendingCount(), 0);
    }

    void fiveHundredFormulasAreDrawnLazily()
    {
        SANDPIPER_REQUIRE_DOCKER();
        MathRenderer renderer(Test::sandboxImage(), QString());
        QString markdown;
        QStringList texts;
        for (int i = 0; i < 500; ++i) {
            texts << QStringLiteral("a_{%1} = \\frac{%1}{n+1}").arg(i);
            markdown += QStringLiteral("Term %1 is $%2$.\n\n").arg(i).arg(texts.last());
        }
        QScrollArea area;
        auto *view = new MarkdownView({&renderer});
        area.setWidget(view);
        area.setWidgetResizable(true);
        area.resize(600, 400);
        view->setMarkdownText(markdown);
        area.show();
        QVERIFY(QTest::qWaitForWindowExposed(&area));
        QApplication::processEvents();
        // Only what is on screen is asked for.
        const int asked = 500 - countState(renderer, texts, MathRenderer::State::Missing);
        QVERIFY2(asked > 0 && asked < 100, qPrintable(QString::number(asked)));
        QTRY_COMPARE_WITH_TIMEOUT(renderer.pendingCount(), 0, 60000);
        QCOMPARE(renderer.formula(texts.first()).state, MathRenderer::State::Drawn);
        QCOMPARE(renderer.formula(texts.last()).state, MathRenderer::State::Missing);
        // Scrolled to the end, the last ones are drawn.
        area.verticalScrollBar()->setValue(area.verticalScrollBar()->maximum());
        QTRY_COMPARE_WITH_TIMEOUT(renderer.formula(texts.last()).state, MathRenderer::State::Drawn, 60000);
    }

    void aStreamedAnswerGetsItsFormulas()
    {
        MarkdownView view;
        view.resize(600, 100);
        for (const QChar c : answer)
            view.appendStreamingMarkdown(c);
        QCOMPARE(formulasOf(view).size(), 4);
        QCOMPARE(copied(view), [] {
            MarkdownView whole;
            whole.setMarkdownText(answer);
            return copied(whole);
        }());
    }
};

QTEST_MAIN(TestMathView)
#include "tst_mathview.moc"
