export const metadata = { title: 'Slow start in Next.js', icons: 'data:,' };

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
