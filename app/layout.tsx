import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { AppProviders } from "@/components/providers/app-providers";
import { TopNav } from "@/components/ui/top-nav";
import "./globals.css";

export const metadata: Metadata = {
  title: "Trainyard",
  description: "Train and compare prediction models on your own computers.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <AppProviders>
          <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:bg-white focus:p-2">
            Skip to content
          </a>
          <TopNav />
          <main id="main" className="mx-auto w-full max-w-5xl px-4 py-6">
            {children}
          </main>
        </AppProviders>
      </body>
    </html>
  );
}
