// The same frame as the renderer's default layout: header with the site name and navigation, footer.
export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>
        <div data-layout="default" className="flex min-h-screen flex-col">
          <header className="border-b border-default">
            <div className="mx-auto flex max-w-5xl items-center gap-6 px-4 py-3">
              <a href="/" className="text-lg font-semibold">
                Cookbook
              </a>
              <nav aria-label="Main" className="flex flex-1 gap-4 text-sm">
                <a href="/">Home</a>
                <a href="/login">Sign in</a>
              </nav>
            </div>
          </header>
          <main className="mx-auto w-full max-w-5xl flex-1 px-4 py-8">{children}</main>
          <footer className="border-t border-default px-4 py-6 text-center text-sm text-muted">Cookbook: recipes for developers.</footer>
        </div>
      </body>
    </html>
  );
}
